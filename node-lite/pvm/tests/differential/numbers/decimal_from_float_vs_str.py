from decimal import Decimal

def run():
    return [
        str(Decimal(0.1)), str(Decimal("0.1")), Decimal(0.1) == Decimal("0.1"), str(Decimal(0.5)),
        str(Decimal.from_float(1.25)), str(Decimal(3)), str(Decimal((1, (3, 1, 4), -2))),
        str(Decimal(2.5).as_integer_ratio()), list(Decimal("0.75").as_tuple().digits), Decimal("0.75").as_tuple().exponent,
    ]
