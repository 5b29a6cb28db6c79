def run():
    d = dict(x=1, y=2)
    p = d.pop("x")
    d.setdefault("z", 9)
    d.setdefault("y", 100)
    item = d.popitem()
    c = d.copy()
    c["new"] = 1
    return [p, d, item, c, dict.fromkeys("ab", 0), {**d, **{"w": 5}}]
