# refused: import-not-allowed
import numbers
from fractions import Fraction
from decimal import Decimal

def run():
    vals = [1, True, 1.5, Fraction(1, 2), Decimal("1.5"), 1j]
    kinds = [numbers.Number, numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral]
    return [[type(v).__name__] + [isinstance(v, k) for k in kinds] for v in vals]
