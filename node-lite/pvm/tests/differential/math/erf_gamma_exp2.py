import math

def run():
    return [repr(math.erf(0)), repr(math.erf(1)), repr(math.erfc(0)), repr(math.gamma(5)), repr(math.gamma(0.5)), repr(math.lgamma(10)),
            repr(math.exp2(10)), repr(math.exp2(-1)), repr(math.exp2(0.5)),
            repr(math.gamma(23)), repr(math.gamma(24)), repr(math.gamma(-2.5)), repr(math.gamma(171.5)), repr(math.gamma(-180.5)),
            repr(math.lgamma(-2.5)), repr(math.lgamma(0.001)), repr(math.lgamma(1e-30)), repr(math.lgamma(2.5e305)),
            repr(math.gamma(1e-30)), repr(math.gamma(-1e-30))]
