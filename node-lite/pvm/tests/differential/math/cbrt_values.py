import math

def run():
    return [repr(math.cbrt(27)), repr(math.cbrt(-8)), repr(math.cbrt(2)), repr(math.cbrt(0.001)), repr(math.cbrt(-0.0)),
            repr(math.cbrt(1e300)), repr(math.cbrt(float("inf")))]
