from collections import namedtuple

Point = namedtuple("Point", ["x", "y", "z"], defaults=[0, 9])
Pair = namedtuple("Pair", "left right")


def run():
    p = Point(1)
    q = p._replace(y=5)
    r = Point._make([7, 8, 9])
    return [
        list(p), list(q), list(r),
        q._asdict(), type(q._asdict()).__name__,
        list(Point._fields), Point._field_defaults,
        repr(q), p.x + q.y, tuple(Pair("a", "b")),
        Pair(right=2, left=1) == (1, 2),
    ]
