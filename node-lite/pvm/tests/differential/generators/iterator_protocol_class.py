class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current + 1


class Range2:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        i = 0
        while i < self.n:
            yield i
            i += 2


def run():
    c = Countdown(3)
    first = list(c)
    second = list(c)
    r = Range2(7)
    return [first, second, list(r), list(r), 4 in r, 5 in r,
            iter(c) is c, sum(Countdown(4)), dict(zip(Range2(5), "xyz"))]
