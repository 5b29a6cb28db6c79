def configure(*, owner, limit, paused=False):
    return [owner, limit, paused]


def pos_only(a, b=2, /):
    return [a, b]


def mixed(a, *args, b, **kw):
    return [a, list(args), b, kw]


def attempt(fn):
    try:
        return fn()
    except TypeError as e:
        return ["TypeError", str(e)]


def run():
    return [
        configure(limit=5, owner="x"),
        attempt(lambda: configure()),
        attempt(lambda: configure(owner="x")),
        attempt(lambda: configure("x", 5)),
        pos_only(1),
        attempt(lambda: pos_only(a=1)),
        mixed(1, 2, 3, b=4, c=5),
        attempt(lambda: mixed(1, 2)),
        pos_only(1, **{}),
    ]
