from decimal import Decimal, ROUND_HALF_UP, ROUND_FLOOR

def run():
    return [
        str(Decimal("1.500").normalize()), str(Decimal("100").normalize()), str(Decimal("0.00").normalize()),
        str(Decimal("2.5").to_integral_value()), str(Decimal("3.5").to_integral_value()),
        str(Decimal("2.5").to_integral_value(rounding=ROUND_HALF_UP)), str(Decimal("-2.5").to_integral_value(rounding=ROUND_FLOOR)),
        str(Decimal("1E+2").to_integral_value()), int(Decimal("-7.9")), round(Decimal("2.5")), str(round(Decimal("2.345"), 2)),
        str(Decimal("12.30").quantize(Decimal("1E+1"))),
    ]
