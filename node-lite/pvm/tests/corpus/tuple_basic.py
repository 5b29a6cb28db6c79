def run():
    t = (1, "a", [2])
    t[2].append(3)
    a, b, c = t
    first, *rest = (1, 2, 3, 4)
    *init, last = "xyz"
    return [t, a, b, c, first, rest, init, last, t.count(1), t.index("a"), (1,) * 3, len(())]
