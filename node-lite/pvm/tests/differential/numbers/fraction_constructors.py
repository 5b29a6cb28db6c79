from fractions import Fraction
from decimal import Decimal

def run():
    out = [str(Fraction("3/4")), str(Fraction(" -7/21 ")), str(Fraction("1.25")), str(Fraction("1e-3")), str(Fraction(0.1)),
           str(Fraction(Decimal("0.1"))), str(Fraction.from_float(0.5)), str(Fraction.from_decimal(Decimal("2.50"))),
           str(Fraction(Fraction(1, 2), Fraction(1, 3))), str(Fraction(5))]
    for args in (("1/0",), (1, 0), ("x",), (float("nan"),)):
        try:
            out.append(str(Fraction(*args)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
