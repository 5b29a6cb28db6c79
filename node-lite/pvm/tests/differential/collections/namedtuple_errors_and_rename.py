from collections import namedtuple


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    P = namedtuple("P", "a b")
    R = namedtuple("R", ["ok", "def", "ok", "_x"], rename=True)
    p = P(1, 2)
    return [
        list(R._fields),
        attempt(lambda: P(1)),
        attempt(lambda: P(1, 2, 3)),
        attempt(lambda: p._replace(c=3)),
        attempt(lambda: namedtuple("Bad", ["a", "a"])),
        attempt(lambda: namedtuple("Bad", ["class"])),
        attempt(lambda: setattr(p, "a", 5)),
        [p.a, p[1], p[-1], list(p[:1]), p.index(2), p.count(1)],
        attempt(lambda: list(P._make([1]))),
    ]
