class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def run():
    p = Point(3, 4)
    data = {"name": "alice", "tags": ["a", "b"], 1: "int-key"}
    items = ["zero", "one", ("t0", "t1")]
    return [
        "{0[1]}".format(items),
        "{0[2][1]}".format(items),
        "{p.x},{p.y}".format(p=p),
        "{0.x:>4}".format(p),
        "{d[name]} {d[tags][0]}".format(d=data),
        "{d[1]}".format(d=data),
        "{[0]}-{[1]}".format("ab", "cd"),
        "{0[0]}{0[-1]}".format({"-1": "neg", 0: "zero"}),
        "{0.real} {0.imag}".format(5),
        "{items[0]:*^8}".format(items=items),
    ]
