from collections import Counter


def run():
    c = Counter(a=2, b=0, c=-1, d=3)
    elems = list(c.elements())
    c.update("aab")
    c.update({"z": 4})
    after_update = dict(c)
    c.subtract(a=10, q=1)
    after_sub = dict(c)
    del c["d"]
    return [elems, after_update, after_sub, sorted(c), "d" in c, repr(Counter("aab"))]
