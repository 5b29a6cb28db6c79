import math

def run():
    tiny = 1e-10
    return [repr(math.log1p(tiny)), repr(math.log(1 + tiny)), repr(math.expm1(tiny)), repr(math.exp(tiny) - 1),
            repr(math.log1p(0)), repr(math.expm1(0)), repr(math.log1p(1)), repr(math.expm1(1)), repr(math.expm1(-50))]
