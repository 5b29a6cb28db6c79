class Cents:
    def __init__(self, n):
        self.n = n

    def __add__(self, other):
        if isinstance(other, Cents):
            return Cents(self.n + other.n)
        if isinstance(other, int):
            return Cents(self.n + other)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, int):
            return Cents(other + self.n)
        return NotImplemented

    def __rsub__(self, other):
        return Cents(other - self.n)

    def __repr__(self):
        return f"Cents({self.n})"


def run():
    items = [Cents(5), Cents(10), Cents(20)]
    out = [repr(sum(items)), repr(sum(items, Cents(100))), repr(1 + Cents(2)), repr(Cents(2) + 1), repr(50 - Cents(8))]
    try:
        "x" + Cents(1)
    except TypeError as e:
        out.append(str(e))
    try:
        Cents(1) - Cents(2)
    except TypeError as e:
        out.append(str(e))
    return out
