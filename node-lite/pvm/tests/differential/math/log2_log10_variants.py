import math

def run():
    return [repr(math.log2(8)), repr(math.log2(1024)), repr(math.log2(3)), repr(math.log2(2**200)), repr(math.log2(0.125)),
            repr(math.log10(1000)), repr(math.log10(0.001)), repr(math.log10(2)), repr(math.log10(10**50)), repr(math.log10(5e-324))]
