import math

def run():
    return [repr(math.hypot(3, 4)), repr(math.hypot(5, 12)), repr(math.hypot(1, 1)), repr(math.hypot(-3, -4)),
            repr(math.hypot()), repr(math.hypot(7)), repr(math.hypot(-7)), repr(math.hypot(1, 2, 2)), repr(math.hypot(2, 3, 6)),
            repr(math.hypot(1e200, 1e200)), repr(math.hypot(float("inf"), float("nan"))), repr(math.hypot(1e-200, 1e-200))]
