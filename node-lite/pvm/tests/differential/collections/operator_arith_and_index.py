import operator


class Slot:
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        operator.add(2, 3), operator.mul("ab", 3), operator.neg(5), operator.pos(-2),
        operator.sub(10, 4), operator.floordiv(-7, 2), operator.mod(-7, 2),
        operator.truediv(7, 2) == 3.5, operator.pow(2, 10), operator.abs(-9),
        operator.concat([1], [2]), operator.contains("hello", "ell"),
        operator.not_(0), operator.truth([]), operator.eq(1, 1.0), operator.lt("a", "b"),
        operator.index(7), operator.index(Slot(4)), [10, 20, 30, 40][Slot(2)],
        attempt(lambda: operator.index(3.0)),
        attempt(lambda: operator.index("3")),
        operator.getitem([1, 2, 3], -1), operator.countOf([1, 2, 1], 1), operator.indexOf("abc", "c"),
        operator.and_(12, 10), operator.or_(12, 10), operator.xor(12, 10), operator.invert(5),
        operator.lshift(1, 5), operator.rshift(256, 3),
    ]
