class Defaulting(dict):
    def __missing__(self, key):
        value = len(str(key))
        self[key] = value
        return value


class Counting(dict):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.sets = 0

    def __setitem__(self, k, v):
        self.sets += 1
        super().__setitem__(k, v)


def run():
    d = Defaulting(a=1)
    out = [d["a"], d["hello"], d.get("zz"), "zz" in d, dict(d), type(d).__name__, isinstance(d, dict)]
    c = Counting({"x": 1})
    c["y"] = 2
    c.update(z=3)
    c.setdefault("w", 4)
    out += [c.sets, sorted(c), dict(c) == {"x": 1, "y": 2, "z": 3, "w": 4}]
    m = Defaulting()
    out.append(m.pop("k", "none"))
    return out
