from decimal import Decimal

def run():
    prices = [Decimal("19.99"), Decimal("5.01"), Decimal("0.10")]
    total = sum(prices, Decimal("0"))
    tax = (total * Decimal("0.0825")).quantize(Decimal("0.01"))
    return [str(total), str(tax), str(total + tax)]
