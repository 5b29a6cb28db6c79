import copy


class Money:
    def __init__(self, amount, cur):
        self.amount = amount
        self.cur = cur

    def __reduce__(self):
        return (Money, (self.amount, self.cur))

    def __eq__(self, other):
        return (self.amount, self.cur) == (other.amount, other.cur)


class Stateful:
    def __init__(self):
        self.x = 1
        self.secret = "s"

    def __getstate__(self):
        return {"x": self.x}

    def __setstate__(self, st):
        self.x = st["x"]
        self.secret = "restored"


def run():
    m = Money(5, "EUR")
    mc = copy.copy(m)
    md = copy.deepcopy([m, m])
    s = Stateful()
    sc = copy.copy(s)
    sd = copy.deepcopy(s)
    return [mc == m, mc is m, md[0] is md[1], md[0].cur, sc.x, sc.secret, sd.secret,
            copy.deepcopy(bytearray(b"ab")) == bytearray(b"ab"),
            sorted(copy.deepcopy({3, 1, 2})), copy.copy(frozenset([1])) == frozenset([1])]
