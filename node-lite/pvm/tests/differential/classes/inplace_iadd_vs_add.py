class Basket:
    def __init__(self, items=()):
        self.items = list(items)

    def __add__(self, other):
        return Basket(self.items + other.items)

    def __iadd__(self, other):
        self.items.extend(other.items)
        return self


class NoInplace:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return NoInplace(self.v + other)


class Broken:
    def __iadd__(self, other):
        return None


def run():
    a = Basket([1])
    alias = a
    a += Basket([2, 3])
    out = [a.items, alias is a, alias.items]
    b = a + Basket([4])
    out += [b.items, a.items, b is a]
    n = NoInplace(1)
    m = n
    n += 5
    out += [n.v, m.v, n is m]
    x = Broken()
    x += 1
    out.append(x is None)
    t = [1]
    t2 = t
    t += (2, 3)
    out.append([t, t2 is t])
    return out
