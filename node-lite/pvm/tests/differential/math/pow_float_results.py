import math

def run():
    return [repr(math.pow(2, 10)), repr(math.pow(2, -1)), repr(math.pow(2, 0.5)), repr(math.pow(0, 0)), repr(math.pow(-8, 3)),
            repr(math.pow(1, float("nan"))), repr(math.pow(float("nan"), 0)), repr(math.pow(float("inf"), -1)),
            repr(math.pow(-1, float("inf"))), type(math.pow(2, 3)).__name__, repr(2 ** 0.5 == math.pow(2, 0.5))]
