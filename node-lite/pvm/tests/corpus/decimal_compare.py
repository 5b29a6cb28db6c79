from decimal import Decimal

def run():
    xs = [Decimal("1.10"), Decimal("1.1"), Decimal("-0"), Decimal("3E2")]
    return [xs[0] == xs[1], str(max(xs)), str(xs[3]), str(xs[3].normalize()), str(-xs[0]), int(Decimal("7.9")), str(Decimal(10) ** 3)]
