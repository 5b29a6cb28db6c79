from typing import NamedTuple, get_type_hints


class Point(NamedTuple):
    x: int
    y: int = 0
    label: str = "p"

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


def run():
    p = Point(3, -4)
    q = p._replace(label="q")
    x, y, lab = p
    out = [
        repr(p),
        list(p),
        p.norm1(),
        p[1],
        [x, y, lab],
        p == (3, -4, "p"),
        list(Point._fields),
        Point._field_defaults,
        dict(q._asdict()),
        list(Point._make([1, 2, "m"])),
        tuple(p),
        isinstance(p, tuple),
        {k: repr(v) for k, v in get_type_hints(Point).items()},
    ]
    try:
        p.x = 10
    except AttributeError as e:
        out.append(str(e))
    try:
        Point()
    except TypeError as e:
        out.append(str(e))
    return out
