from decimal import Decimal

def run():
    a, b = Decimal("1.1"), Decimal("2.20")
    return [str(a + b), str(a * b), str(b - a), str(Decimal(1) / Decimal(3)), str(Decimal("10") / Decimal("4")),
            str(Decimal("7") // Decimal("2")), str(Decimal("-7") // Decimal("2")), str(Decimal("-7") % Decimal("2")),
            str(Decimal("2") ** 10), str(-Decimal("0.0")), str(abs(Decimal("-3.50"))), str(Decimal("1.30") + 1)]
