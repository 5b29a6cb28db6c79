class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return isinstance(other, Money) and self.cents == other.cents


class HashedMoney(Money):
    def __hash__(self):
        return hash(self.cents)


class Plain:
    pass


def run():
    out = [len({HashedMoney(5), HashedMoney(5), HashedMoney(6)}), HashedMoney(5) == Money(5)]
    try:
        {Money(5): 1}
    except TypeError as e:
        out.append(str(e))
    try:
        hash(Money(1))
    except TypeError as e:
        out.append(str(e))
    try:
        set([Money(1)])
    except TypeError as e:
        out.append(type(e).__name__)
    a = Plain()
    b = Plain()
    d = {a: "a", b: "b"}
    out.append(len(d))
    out.append(a == a)
    out.append(a == b)
    out.append(Money(3) == Money(3))
    out.append(Money(3) in [Money(1), Money(3)])
    return out
