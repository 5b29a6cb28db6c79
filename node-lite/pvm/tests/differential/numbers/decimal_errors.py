from decimal import Decimal, InvalidOperation, DivisionByZero, localcontext

def run():
    out = []
    tests = [lambda: Decimal(1) / Decimal(0), lambda: Decimal(0) / Decimal(0), lambda: Decimal("abc"),
             lambda: Decimal(-1).sqrt(), lambda: Decimal(1) % Decimal(0), lambda: Decimal("1.5").quantize(Decimal("1e-30"))]
    for f in tests:
        try:
            out.append(str(f()))
        except ArithmeticError as e:
            out.append([type(e).__name__, isinstance(e, InvalidOperation), isinstance(e, DivisionByZero), isinstance(e, ZeroDivisionError)])
    with localcontext() as ctx:
        ctx.traps[DivisionByZero] = False
        out.append(str(Decimal(1) / Decimal(0)))
        out.append(str(Decimal(-1) / Decimal(0)))
    return out
