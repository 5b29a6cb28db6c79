import math

def run():
    return [repr(math.nextafter(1.0, 2.0)), repr(math.nextafter(1.0, 0.0)), repr(math.nextafter(0.0, 1.0)), repr(math.nextafter(0.0, -1.0)),
            repr(math.nextafter(1.0, 1.0)), repr(math.nextafter(float("inf"), 0)), repr(math.nextafter(1.7976931348623157e308, float("inf"))),
            repr(math.ulp(1.0)), repr(math.ulp(0.0)), repr(math.ulp(-1.0)), repr(math.ulp(1e16)), repr(math.ulp(float("inf"))),
            repr(math.ulp(float("nan"))), math.nextafter(1.0, 2.0) - 1.0 == math.ulp(1.0)]
