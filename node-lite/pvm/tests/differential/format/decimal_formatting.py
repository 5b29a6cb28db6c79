from decimal import Decimal


def run():
    d = Decimal("1234567.8951")
    out = [
        format(d, ",.2f"),
        format(d, ".2f"),
        format(Decimal("2.5"), ".0f"),
        format(Decimal("3.5"), ".0f"),
        format(Decimal("0.000012"), "e"),
        format(Decimal("0.000012"), "g"),
        format(Decimal("-0.5"), "+.1%"),
        format(Decimal("12.30"), ""),
        format(Decimal("12.30"), ">10"),
        format(Decimal("1E+3"), "f"),
        format(Decimal("1E+3"), ""),
        f"{Decimal('100'):010.2f}",
        str(Decimal("1.10") + Decimal("2.205")),
    ]
    try:
        out.append("{:_.3f}".format(Decimal("9876543.21")))
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    return out
