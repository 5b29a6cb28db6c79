from decimal import Decimal

def run():
    a = Decimal("0.1")
    b = Decimal("0.2")
    return [str(a + b), str(a * 3), str(Decimal("1") / Decimal("3")), str(Decimal("2").sqrt()), (a + b) == Decimal("0.3")]
