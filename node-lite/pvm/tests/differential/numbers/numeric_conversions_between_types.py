from fractions import Fraction
from decimal import Decimal

def run():
    return [repr(float(Fraction(1, 3))), repr(float(Decimal("0.1"))), int(Fraction(-7, 2)), int(Decimal("1e3")),
            str(Fraction(Decimal("1.75"))), str(Decimal(Fraction(1, 4).numerator) / Fraction(1, 4).denominator),
            repr(float(Fraction(7, 2)) * 2), str(Fraction("1.25")), repr(abs(Fraction(-3, 4))), repr(float(True)), repr(1 + 2.0),
            type(1 + Fraction(1)).__name__, repr(float("0.1") + Fraction(1, 10))]
