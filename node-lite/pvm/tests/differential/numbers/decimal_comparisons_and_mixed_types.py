from decimal import Decimal
from fractions import Fraction

def run():
    out = [Decimal("1.0") == Decimal("1.00"), Decimal("1.0") == 1, Decimal("0.5") == 0.5, Decimal("0.1") == 0.1,
           Decimal("2") < 3, Decimal("2.5") > 2.4, sorted([Decimal("3"), Decimal("-1"), Decimal("2.5")]) == [Decimal("-1"), Decimal("2.5"), Decimal("3")],
           Decimal("NaN") == Decimal("NaN"), max(Decimal("1.0"), Decimal("1.00")).as_tuple().exponent,
           Decimal("0.5") == Fraction(1, 2)]
    try:
        Decimal("1") + 1.5
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        Decimal("NaN") < 1
    except ArithmeticError as e:
        out.append(type(e).__name__)
    return out
