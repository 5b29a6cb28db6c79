from decimal import Decimal, localcontext

def run():
    with localcontext() as ctx:
        ctx.prec = 20
        return [str(Decimal(2).sqrt()), str(Decimal("0.25").sqrt()), str(Decimal(16).sqrt()), str(Decimal(1).exp()),
                str(Decimal(10).ln()), str(Decimal(1000).log10()), str(Decimal(0).sqrt()), str(Decimal("1.44").sqrt())]
