import math

def run():
    nz = -0.0
    return [
        repr(nz), str(nz), nz == 0.0, repr(0.0 * -1), repr(-0.0 + 0.0), repr(-0.0 - 0.0),
        repr(abs(nz)), math.copysign(1, nz) < 0, repr(round(-0.4)), repr(-1 * 0.0),
        repr(float("-0")), int(nz), repr(-0.0 * 0), format(nz, ".1f"),
    ]
