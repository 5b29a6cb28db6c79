import math

def run():
    return [repr(math.sinh(0)), repr(math.cosh(0)), repr(math.tanh(0)), repr(math.sinh(1)), repr(math.cosh(1)), repr(math.tanh(1)),
            repr(math.tanh(100)), repr(math.asinh(0)), repr(math.acosh(1)), repr(math.atanh(0.5)), repr(math.tanh(-float("inf")))]
