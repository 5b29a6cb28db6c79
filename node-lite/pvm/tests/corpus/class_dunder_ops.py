class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __add__(self, other):
        return Vec(*[a + b for a, b in zip(self.xs, other.xs)])
    def __mul__(self, k):
        return Vec(*[a * k for a in self.xs])
    __rmul__ = __mul__
    def __eq__(self, other):
        return isinstance(other, Vec) and self.xs == other.xs
    def __len__(self):
        return len(self.xs)
    def __getitem__(self, i):
        return self.xs[i]
    def __iter__(self):
        return iter(self.xs)
    def __bool__(self):
        return any(self.xs)
    def __repr__(self):
        return "Vec" + repr(tuple(self.xs))

def run():
    v = Vec(1, 2) + Vec(3, 4)
    return [repr(v), repr(2 * v), v == Vec(4, 6), len(v), v[1], list(v), bool(Vec(0, 0)), sum(Vec(1, 2, 3))]
