import math

def run():
    return [repr(math.sqrt(2)), repr(math.sqrt(16)), repr(math.sqrt(0.25)), repr(math.sqrt(-0.0)), repr(math.sqrt(float("inf"))),
            math.isqrt(0), math.isqrt(15), math.isqrt(16), math.isqrt(10**40 + 1), math.isqrt(2**127), math.isqrt(True),
            repr(math.sqrt(10**40)), repr(math.sqrt(True))]
