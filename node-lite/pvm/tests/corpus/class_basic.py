class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def dist2(self, other):
        return (self.x - other.x) ** 2 + (self.y - other.y) ** 2

    def __repr__(self):
        return f"Point({self.x}, {self.y})"

def run():
    p, q = Point(1, 2), Point(4, 6)
    return [p.dist2(q), repr(p), str(q), p.x + q.y]
