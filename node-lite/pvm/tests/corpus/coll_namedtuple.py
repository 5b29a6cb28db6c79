from collections import namedtuple

Point = namedtuple("Point", ["x", "y"])

def run():
    p = Point(1, y=2)
    q = p._replace(x=10)
    return [p.x + p.y, list(q), p._asdict(), Point._fields, repr(p), tuple(p) == (1, 2)]
