import decimal
import json
from decimal import Decimal, Context


class Money(Decimal):
    pass


class Dotted:
    pass


Dotted.__name__ = "my.dotted"


def error(f):
    try:
        f()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None


def run():
    d = Decimal("1.5")
    return [
        type(d).__name__, Decimal.__qualname__, repr(Decimal), str(type(d)),
        Context.__name__, repr(Context), type(decimal.getcontext()).__name__,
        Money.__name__, repr(Money), type(Money("2") + 1).__name__,
        Dotted.__name__, Dotted.__qualname__,
        error(lambda: d + 1.5), error(lambda: 1.5 + d), error(lambda: d < "a"),
        error(lambda: d["x"]), error(lambda: d()), error(lambda: json.dumps(d)),
        error(lambda: Money("1") - 2.5), error(lambda: len(d)), error(lambda: Decimal([1])),
        [t.__name__ for t in (Decimal, Context, decimal.InvalidOperation, decimal.DivisionByZero)],
    ]
