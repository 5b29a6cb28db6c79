from collections import defaultdict


def run():
    d = defaultdict(set)
    d["a"].add(3)
    d["a"].add(1)
    m = d.__missing__("b")
    c = d.copy()
    c["c"].add(9)
    r = repr(defaultdict(int, {"k": 1}))
    merged = defaultdict(int, {"a": 1}) | {"b": 2}
    return [sorted(d["a"]), sorted(m), sorted(d), sorted(c), type(c).__name__, r,
            type(merged).__name__, dict(merged), merged["zz"]]
