class Key:
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def __eq__(self, other):
        if not isinstance(other, Key):
            return NotImplemented
        return (self.a, self.b) == (other.a, other.b)

    def __hash__(self):
        return hash((self.a, self.b))


def run():
    d = {}
    d[Key(1, "x")] = "first"
    d[Key(1, "x")] = "second"
    d[Key(2, "y")] = "third"
    s = {Key(1, "x"), Key(1, "x"), Key(3, "z")}
    return [
        len(d),
        d[Key(1, "x")],
        Key(2, "y") in d,
        Key(9, "q") in d,
        len(s),
        Key(1, "x") == Key(1, "x"),
        Key(1, "x") != Key(1, "y"),
        Key(1, "x") == (1, "x"),
        d.get(Key(5, "w"), "missing"),
    ]
