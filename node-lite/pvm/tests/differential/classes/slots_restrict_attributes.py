# refused: dunder-attribute
class Pixel:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class ColorPixel(Pixel):
    __slots__ = ("color",)


class Loose(Pixel):
    pass


def run():
    p = Pixel(1, 2)
    out = [p.x + p.y, hasattr(p, "__dict__"), Pixel.__slots__]
    try:
        p.z = 3
    except AttributeError as e:
        out.append(str(e))
    c = ColorPixel(0, 0)
    c.color = "red"
    out.append(c.color)
    try:
        c.alpha = 1
    except AttributeError as e:
        out.append(str(e))
    q = Pixel.__new__(Pixel)
    try:
        q.x
    except AttributeError as e:
        out.append(str(e))
    del p.y
    out.append(hasattr(p, "y"))
    l = Loose(1, 1)
    l.z = 9
    out.append(vars(l))
    out.append(type(Pixel.__dict__["x"]).__name__)
    return out
