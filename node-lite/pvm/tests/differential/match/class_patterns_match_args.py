class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def where(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(0, y):
            return f"on y axis at {y}"
        case Point(x, 0):
            return f"on x axis at {x}"
        case Point(x, y) if x == y:
            return f"diagonal {x}"
        case Point(x=x, y=y):
            return f"at {x},{y}"
        case _:
            return "not a point"


def run():
    return [where(Point(0, 0)), where(Point(0, 5)), where(Point(3, 0)), where(Point(2, 2)),
            where(Point(1, 9)), where((1, 2)), where(None)]
