class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        if isinstance(o, Vec):
            return Vec(self.x + o.x, self.y + o.y)
        return NotImplemented

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)

    def __mul__(self, k):
        if isinstance(k, int):
            return Vec(self.x * k, self.y * k)
        if isinstance(k, Vec):
            return self.x * k.x + self.y * k.y
        return NotImplemented

    __rmul__ = __mul__

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __abs__(self):
        return self.x * self.x + self.y * self.y

    def __eq__(self, o):
        return isinstance(o, Vec) and (self.x, self.y) == (o.x, o.y)

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"


def run():
    a = Vec(1, 2)
    b = Vec(3, -4)
    out = [repr(a + b), repr(a - b), repr(a * 3), repr(3 * a), a * b, repr(-b), abs(b), a + b == Vec(4, -2)]
    try:
        a + 1
    except TypeError as e:
        out.append(str(e))
    try:
        "s" * a
    except TypeError as e:
        out.append(str(e))
    return out
