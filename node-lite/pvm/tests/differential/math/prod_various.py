import math
from fractions import Fraction

def run():
    return [math.prod([1, 2, 3, 4]), math.prod([]), math.prod([], start=5), math.prod(range(1, 11)), repr(math.prod([0.5, 4, 1.5])),
            math.prod([2, 3], start=10), str(math.prod([Fraction(1, 2), Fraction(2, 3)])), math.prod([True, True]),
            math.prod([-1] * 7), math.prod((3, 2)), math.prod([2**40, 2**40])]
