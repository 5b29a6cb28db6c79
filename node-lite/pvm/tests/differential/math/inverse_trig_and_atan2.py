import math

def run():
    return [repr(math.atan2(1, 1)), repr(math.atan2(1, -1)), repr(math.atan2(-1, -1)), repr(math.atan2(0.0, -1)),
            repr(math.atan2(-0.0, -1)), repr(math.atan2(0, 0)), repr(math.atan2(1, 0)), repr(math.atan2(float("inf"), float("inf"))),
            repr(math.asin(1)), repr(math.acos(-1)), repr(math.atan(1)), repr(math.acos(1)), repr(math.atan(float("inf")))]
