def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    base = {"a": 1, "b": 2}
    over = {"b": 20, "c": 30}
    merged = base | over
    rmerged = over | base
    m2 = dict(base)
    m2 |= [("d", 4), ("a", 0)]
    d = {}
    sd1 = d.setdefault("k", [])
    sd1.append(1)
    sd2 = d.setdefault("k", [99])
    fk = dict.fromkeys(["x", "y"], 0)
    shared = dict.fromkeys("ab", [])
    shared["a"].append(1)
    p = {"a": 1}
    return [merged, rmerged, m2, d, sd2, fk, shared, dict.fromkeys([1, 2]),
            p.pop("a"), p.pop("a", "gone"), attempt(lambda: p.pop("a")),
            attempt(lambda: base | [("z", 1)]), attempt(lambda: {}.popitem()),
            {"a": 1, "b": 2}.popitem(), dict(zip("ab", [1, 2]), c=3),
            attempt(lambda: dict([(1, 2, 3)]))]
