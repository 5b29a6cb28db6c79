class P:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class ListArgs:
    __match_args__ = ["x"]

    def __init__(self, x):
        self.x = x


class Sub(int):
    pass


def classify(v):
    match v:
        case P(a, b, c) as whole:
            return ["three", whole]
        case int(n) | str(n):
            return ["self", repr(n)]
        case _:
            return "other"


def attempt(fn, v):
    try:
        return fn(v)
    except TypeError as e:
        return ["TypeError", str(e)]


def two_self(v):
    match v:
        case str(a, b):
            return [a, b]
    return "no"


def list_args(v):
    match v:
        case ListArgs(x):
            return x
    return "no"


def guarded(v):
    match v:
        case P(a, b) if a > 1:
            return "big"
        case P(a, b):
            return [a, b]
    return "no"


def run():
    return [
        attempt(classify, P(1, 2)),
        attempt(classify, 5),
        attempt(classify, Sub(7)),
        attempt(classify, "s"),
        attempt(classify, 2.5),
        attempt(two_self, "ab"),
        attempt(two_self, 3),
        attempt(list_args, ListArgs(1)),
        attempt(list_args, 4),
        attempt(guarded, P(2, 3)),
        attempt(guarded, P(0, 3)),
    ]
