class Plain:
    def __init__(self, a):
        self.a = a


class TwoArgs:
    __match_args__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b


def too_many_positional(value):
    match value:
        case Plain(x):
            return x
    return "no match"


def too_many_for_match_args(value):
    match value:
        case TwoArgs(x, y, z):
            return [x, y, z]
    return "no match"


def run():
    out = []
    for fn, arg in [(too_many_positional, Plain(1)), (too_many_positional, 5),
                    (too_many_for_match_args, TwoArgs(1, 2)), (too_many_positional, "s")]:
        try:
            out.append(["ok", fn(arg)])
        except TypeError as e:
            out.append(["TypeError", str(e)])
    return out
