from decimal import Decimal, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_DOWN, ROUND_UP, ROUND_FLOOR, ROUND_CEILING, ROUND_HALF_DOWN, ROUND_05UP

def run():
    modes = [ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_HALF_DOWN, ROUND_DOWN, ROUND_UP, ROUND_FLOOR, ROUND_CEILING, ROUND_05UP]
    vals = ["2.675", "2.665", "-2.675", "1.001", "-1.009"]
    return {m: [str(Decimal(v).quantize(Decimal("0.01"), rounding=m)) for v in vals] for m in modes}
