from decimal import Decimal, localcontext


def run():
    out = []
    for prec in (30, 40, 50, 78):
        with localcontext(prec=prec):
            out.append([str(Decimal(2).exp()), str(Decimal(10).ln()), str(Decimal(2).log10()),
                        str(Decimal(2) ** Decimal("0.5")), str(Decimal(-1000).exp())])
    return out
