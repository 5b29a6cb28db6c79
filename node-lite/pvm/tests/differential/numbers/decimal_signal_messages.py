import decimal
from decimal import Decimal, localcontext


def message(f):
    try:
        return ["ok", str(f())]
    except ArithmeticError as e:
        return [type(e).__name__, str(e), len(e.args), repr(e.args[0])]


def run():
    out = [
        message(lambda: Decimal("abc")),
        message(lambda: Decimal(1) / Decimal(0)),
        message(lambda: Decimal(0) / Decimal(0)),
        message(lambda: Decimal(-1).sqrt()),
        message(lambda: Decimal(1) % Decimal(0)),
        message(lambda: Decimal("1.5").quantize(Decimal("1e-30"))),
        message(lambda: Decimal(10) ** 1000000),
        message(lambda: Decimal("1e999999") * 10),
        message(lambda: Decimal(1) // Decimal(0)),
        message(lambda: Decimal("inf") - Decimal("inf")),
    ]
    with localcontext() as ctx:
        ctx.traps[decimal.DivisionByZero] = False
        out.append(message(lambda: Decimal(1) / Decimal(0)))
        out.append(bool(ctx.flags[decimal.DivisionByZero]))
    with localcontext() as ctx:
        ctx.traps[decimal.Inexact] = True
        out.append(message(lambda: Decimal(1) / Decimal(3)))
    return out
