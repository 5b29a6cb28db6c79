class Countdown:
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        return CountdownIter(self.start)


class CountdownIter:
    def __init__(self, cur):
        self.cur = cur

    def __iter__(self):
        return self

    def __next__(self):
        if self.cur <= 0:
            raise StopIteration
        self.cur -= 1
        return self.cur + 1


class Tree:
    def __init__(self, value, *children):
        self.value = value
        self.children = children

    def __iter__(self):
        yield self.value
        for c in self.children:
            yield from c


def run():
    c = Countdown(3)
    it = iter(Countdown(2))
    t = Tree(1, Tree(2, Tree(3)), Tree(4))
    return [
        list(c),
        list(c),
        next(it),
        next(it),
        next(it, "done"),
        list(t),
        dict(zip(Countdown(3), "abc")),
        3 in t,
        max(t),
    ]
