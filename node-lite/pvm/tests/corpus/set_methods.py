def run():
    s = set("mississippi")
    s.add("z")
    s.discard("q")
    s.remove("m")
    t = frozenset([1, 2, 2, 3])
    return [sorted(s), sorted(t), 2 in t, sorted(t.union({9})), sorted({x % 3 for x in range(10)})]
