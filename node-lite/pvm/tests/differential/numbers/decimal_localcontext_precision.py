from decimal import Decimal, localcontext, getcontext

def run():
    out = [getcontext().prec, str(Decimal(2).sqrt())]
    with localcontext() as ctx:
        ctx.prec = 5
        out.append(str(Decimal(1) / Decimal(7)))
        out.append(str(Decimal("123456789") + 0))
        out.append(str(Decimal("1.23456789") * 1))
        out.append(str(+Decimal("99999.5")))
    out.append(str(Decimal(1) / Decimal(7)))
    with localcontext(prec=50):
        out.append(str(Decimal(1) / Decimal(3)))
    return out
