from collections import OrderedDict


def run():
    a = OrderedDict([("x", 1), ("y", 2)])
    b = OrderedDict([("y", 2), ("x", 1)])
    plain = {"y": 2, "x": 1}
    r = [a == b, a == plain, dict(a) == dict(b), list(reversed(a)), repr(a)]
    a["z"] = 3
    a["x"] = 10
    r.append(list(a.items()))
    r.append(a.setdefault("w", 0))
    r.append(list(a.keys()))
    c = a | {"q": 7}
    r.append([type(c).__name__, list(c)])
    return r
