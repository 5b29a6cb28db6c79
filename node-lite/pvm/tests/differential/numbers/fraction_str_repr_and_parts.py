import math
from fractions import Fraction

def run():
    f = Fraction(-10, 4)
    return [str(f), repr(f), f.numerator, f.denominator, list(f.as_integer_ratio()), str(Fraction(4, 2)), repr(Fraction(4, 2)),
            int(f), repr(float(f)), round(f), str(round(Fraction(7, 3), 2)), round(Fraction(5, 2)),
            [math.floor(f), math.ceil(f), math.trunc(f)], abs(f) == Fraction(5, 2)]
