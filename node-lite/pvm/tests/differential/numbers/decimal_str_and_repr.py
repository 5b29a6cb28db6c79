from decimal import Decimal

def run():
    vals = ["1.50", "0.000001", "0.0000001", "1E+3", "1e-10", "-0", "123.456e5", "Infinity", "-inf", "NaN", "1000", "0E-8"]
    return [[str(Decimal(v)), repr(Decimal(v))] for v in vals] + [format(Decimal("1234.5"), ",.2f"), f"{Decimal('0.1'):e}"]
