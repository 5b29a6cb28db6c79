from collections import namedtuple


class Vec(namedtuple("Vec", "x y")):
    __slots__ = ()

    def norm1(self):
        return abs(self.x) + abs(self.y)

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)


def run():
    a = Vec(1, -2)
    b = Vec(3, 4)
    c = a + b
    x, y = c
    items = sorted([Vec(2, 1), Vec(1, 5), Vec(1, 2)])
    return [list(c), x, y, a.norm1(), [list(v) for v in items], repr(c),
            max(items, key=lambda v: v.y).x, dict(zip(Vec._fields, b))]
