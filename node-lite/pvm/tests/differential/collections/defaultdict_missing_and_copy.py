from collections import defaultdict


class Zeroes(dict):
    def __missing__(self, key):
        return 0


def run():
    d = defaultdict(set)
    d["a"].add(3)
    d["a"].add(1)
    m = d["b"]
    c = d.copy()
    c["c"].add(9)
    r = repr(defaultdict(int, {"k": 1}))
    merged = defaultdict(int, {"a": 1}) | {"b": 2}
    z = Zeroes(a=2)
    z_out = [z["a"], z["missing"], "missing" in z, z.get("missing")]
    return [sorted(d["a"]), sorted(m), sorted(d), sorted(c), type(c).__name__, r,
            type(merged).__name__, dict(merged), merged["zz"], z_out, "b" in d, d.get("q"), "q" in d]
