import math

def run():
    vals = [0.1] * 10
    big = [1e100, 1.0, -1e100]
    return [repr(sum(vals)), repr(math.fsum(vals)), repr(sum(big)), repr(math.fsum(big)), repr(math.fsum([])),
            repr(math.fsum([1, 2, 3])), repr(math.fsum([0.1, 0.2, 0.3])), repr(sum([0.1, 0.2, 0.3])),
            repr(math.fsum(x / 3 for x in range(6))), repr(sum(x / 3 for x in range(6)))]
