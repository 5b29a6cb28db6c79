# refused: dunder-attribute
from functools import cached_property


class Loader:
    def __init__(self, n):
        self.n = n

    @cached_property
    def total(self):
        return sum(range(self.n))


def run():
    a = Loader(10)
    before = "total" in a.__dict__
    a.total
    return [before, a.__dict__["total"]]
