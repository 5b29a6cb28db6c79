class Meters:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        if isinstance(other, Meters):
            return self.v == other.v
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, Meters):
            return self.v < other.v
        return NotImplemented

    __hash__ = None


class Feet:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        if isinstance(other, Meters):
            return self.v * 3 == other.v * 10
        return NotImplemented


def run():
    out = [
        Meters(3) == Meters(3),
        Meters(3) == 3,
        Meters(3) != 3,
        Meters(3) == Feet(10),
        Feet(10) == Meters(3),
        Meters(1) in [1, Meters(1)],
        Meters(1) < Meters(2),
        Meters(2) > Meters(1),
        bool(NotImplemented.__class__.__name__ == "NotImplementedType"),
    ]
    try:
        Meters(1) < 5
    except TypeError as e:
        out.append(str(e))
    return out
