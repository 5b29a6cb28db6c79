def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def update(d, seq):
    d.update(seq)
    return d


def ior(d, seq):
    d |= seq
    return d


def run():
    partial = {}
    out = [
        attempt(lambda: dict([(1, 2, 3)])),
        attempt(lambda: dict([(1, 2), (3,)])),
        attempt(lambda: dict([1])),
        attempt(lambda: dict(["ab", "cde"])),
        attempt(lambda: dict(("ab", "cd"))),
        attempt(lambda: dict([[1, 2], {1, 2, 3}])),
        attempt(lambda: update(partial, [("a", 1), ("b", 2, 3)])),
        partial,
        attempt(lambda: ior({}, [(1, 2), 5])),
        attempt(lambda: update({}, ((1, 2), [3, 4], b"xy", None))),
        attempt(lambda: dict(5)),
        attempt(lambda: dict([(i, i) for i in range(3)] + [()])),
    ]
    return out
