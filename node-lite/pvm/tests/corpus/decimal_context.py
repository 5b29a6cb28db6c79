from decimal import Decimal, localcontext

def run():
    with localcontext() as ctx:
        ctx.prec = 5
        short = str(Decimal(1) / Decimal(7))
    full = str(Decimal(1) / Decimal(7))
    return [short, full]
