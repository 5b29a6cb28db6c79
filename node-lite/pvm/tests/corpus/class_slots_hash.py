class Key:
    __slots__ = ("a", "b")
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __hash__(self):
        return hash((self.a, self.b)) & 0
    def __eq__(self, o):
        return (self.a, self.b) == (o.a, o.b)

def run():
    d = {Key(1, 2): "x"}
    try:
        Key(1, 2).c = 3
        err = None
    except AttributeError:
        err = "AttributeError"
    return [d[Key(1, 2)], err, hasattr(Key(0, 0), "__dict__")]
