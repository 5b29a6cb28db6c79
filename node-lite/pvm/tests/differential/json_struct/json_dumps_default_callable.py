import json


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def encode(o):
    if isinstance(o, Point):
        return {"x": o.x, "y": o.y}
    if isinstance(o, set):
        return sorted(o)
    if isinstance(o, bytes):
        return o.hex()
    raise TypeError("cannot encode " + type(o).__name__)


def run():
    out = [json.dumps({"p": Point(1, 2), "s": {3, 1, 2}, "b": b"\x01\xff"}, default=encode)]
    out.append(json.dumps([Point(0, Point(5, 6))], default=encode))
    try:
        json.dumps({"o": object()}, default=encode)
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        json.dumps({"p": Point(1, 2)})
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        json.dumps(b"raw")
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    out.append(json.dumps(Point(3, 4), default=lambda o: {"y": o.y, "x": o.x}, sort_keys=True))
    out.append(json.dumps({"when": Point(1, 1)}, default=encode, indent=1))
    return out
