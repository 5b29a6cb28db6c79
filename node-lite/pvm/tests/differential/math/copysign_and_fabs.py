import math

def run():
    return [repr(math.copysign(3, -0.0)), repr(math.copysign(-3, 0.0)), repr(math.copysign(1, -1e-300)), repr(math.copysign(0.0, -1)),
            repr(math.copysign(float("inf"), -2)), repr(math.copysign(float("nan"), -1)), repr(math.fabs(-3)),
            repr(math.fabs(-0.0)), repr(math.fabs(True)), type(math.fabs(-3)).__name__, repr(math.fabs(float("-inf")))]
