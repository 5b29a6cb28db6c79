import math

def run():
    return [repr(math.exp(0)), repr(math.exp(1)), repr(math.exp(-1)), repr(math.exp(-1000)),
            repr(math.log(1)), repr(math.log(math.e)), repr(math.log(100, 10)), repr(math.log(8, 2)), repr(math.log(10**100)),
            repr(math.log(2**1000, 2)), repr(math.log(0.5)), repr(math.exp(float("-inf")))]
