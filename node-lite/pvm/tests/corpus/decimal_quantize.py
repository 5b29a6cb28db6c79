from decimal import Decimal, ROUND_HALF_UP, ROUND_HALF_EVEN

def run():
    x = Decimal("2.675")
    return [str(x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)), str(x.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)), str(Decimal("1234.5678").quantize(Decimal("1")))]
