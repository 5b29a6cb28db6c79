from dataclasses import dataclass


@dataclass(slots=True)
class Pos:
    x: int
    y: int = 0


@dataclass
class Shape:
    kind: str
    size: int


def describe(s):
    match s:
        case Shape("circle", size):
            return f"circle {size}"
        case Shape(kind=k, size=0):
            return f"empty {k}"
        case Pos(x, y=0):
            return f"on axis {x}"
        case _:
            return "other"


def run():
    p = Pos(1)
    out = [repr(p), p == Pos(1, 0), repr(Pos(y=5, x=2))]
    try:
        p.z = 2
    except AttributeError as e:
        out.append(type(e).__name__)
    out += [describe(Shape("circle", 4)), describe(Shape("sq", 0)), describe(Pos(3)), describe(Pos(3, 1)), describe((3, 0))]
    p.y = 7
    out.append(repr(p))
    return out
