from functools import cached_property


class Loader:
    def __init__(self, n):
        self.n = n
        self.computations = 0

    @cached_property
    def total(self):
        self.computations += 1
        return sum(range(self.n))


def run():
    a = Loader(10)
    r = [a.total, a.total, a.computations]
    a.n = 100
    r.append(a.total)
    del a.total
    r.append(a.total)
    r.append(a.computations)
    a.total = -1
    r.append(a.total)
    r.append(type(Loader.total).__name__)
    r.append(Loader.total.attrname)
    return r
