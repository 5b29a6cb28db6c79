class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return isinstance(other, Money) and self.cents == other.cents


class Plain:
    pass


def run():
    out = [Money.__hash__ is None, Plain.__hash__ is not None]
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
