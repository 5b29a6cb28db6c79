class Circle:
    def __init__(self, r):
        self.r = r

    @property
    def diameter(self):
        return self.r * 2


class Temp:
    def __init__(self):
        self._c = 0

    def _get(self):
        return self._c

    def _set(self, v):
        self._c = v

    celsius = property(_get, _set, None, "temp in C")


def run():
    c = Circle(4)
    out = [c.diameter]
    c.r = 10
    out.append(c.diameter)
    for action in ("set", "del"):
        try:
            if action == "set":
                c.diameter = 3
            else:
                del c.diameter
        except AttributeError as e:
            out.append(str(e))
    t = Temp()
    t.celsius = 37
    out.append(t.celsius)
    out.append(Temp.celsius.__doc__)
    try:
        del t.celsius
    except AttributeError as e:
        out.append(str(e))
    return out
