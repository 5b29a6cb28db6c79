import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0


def run():
    p = Point(1, 2)
    out = [repr(p), hash(p) == hash(Point(1, 2)), p == Point(1, 2)]
    try:
        p.x = 5
    except dataclasses.FrozenInstanceError as e:
        out.append([type(e).__name__, str(e), isinstance(e, AttributeError)])
    try:
        del p.y
    except AttributeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        p.z = 1
    except AttributeError as e:
        out.append(str(e))
    d = {Point(1, 2): "a", Point(1, 2): "b", Point(3): "c"}
    out.append(list(d.values()))
    out.append(len({Point(0), Point(0, 0)}))
    return out
