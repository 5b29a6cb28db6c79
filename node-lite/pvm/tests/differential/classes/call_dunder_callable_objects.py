class Multiplier:
    def __init__(self, k):
        self.k = k
        self.calls = 0

    def __call__(self, x, *, offset=0):
        self.calls += 1
        return x * self.k + offset


class Counter:
    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return self.n


def run():
    triple = Multiplier(3)
    c = Counter()
    out = [triple(2), triple(5, offset=1), triple.calls, callable(triple), callable(Counter), callable(Counter())]
    out.append(list(map(triple, [1, 2, 3])))
    out.append([c(), c(), c()])
    out.append(callable(object()))
    try:
        triple(1, 2)
    except TypeError as e:
        out.append(str(e))
    return out
