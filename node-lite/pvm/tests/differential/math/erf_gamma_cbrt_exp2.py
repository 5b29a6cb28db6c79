import math

def run():
    return [repr(math.erf(0)), repr(math.erf(1)), repr(math.erfc(0)), repr(math.gamma(5)), repr(math.gamma(0.5)), repr(math.lgamma(10)),
            repr(math.cbrt(27)), repr(math.cbrt(-8)), repr(math.cbrt(2)), repr(math.exp2(10)), repr(math.exp2(-1)), repr(math.exp2(0.5))]
