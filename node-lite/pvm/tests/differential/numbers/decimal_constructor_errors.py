from decimal import Decimal, getcontext
from fractions import Fraction


def attempt(value):
    try:
        return ["ok", str(Decimal(value))]
    except (TypeError, ValueError) as e:
        return [type(e).__name__, str(e)]


def run():
    cases = [
        [1], (0, (1, 2), -1, 5), (2, (1,), 0), (0.0, (1,), 0), ("0", (1,), 0),
        (0, (1, 2), "x"), (0, (1, 2), 1.5), (0, "12", 0), (0, range(3), 0), (0, (1, 10), 0),
        (0, (1, -1), 0), (0, (1, "2"), 0), (0, (1, 2.0), 0), (1, (1, 2, 3), -2), [0, [4, 5], 1],
        (0, (), 0), (1, (), "F"), (0, (1, 2), "n"), (1, (7,), "N"), (True, (1,), False),
        (0, (1, 99), "F"), None, object(), Fraction(1, 2), b"12", getcontext(), [],
        "1.25", 7, 2.5, Decimal("3.5"),
    ]
    return [attempt(v) for v in cases]
