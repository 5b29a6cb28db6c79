from collections import Counter


def run():
    a = Counter(x=1, y=2)
    b = Counter(x=1, y=2, z=0)
    c = Counter(x=2, y=3)
    res = [a == b, a <= c, c >= a, a < c, a != c]
    d = Counter(x=5, y=1)
    d -= Counter(y=3)
    res.append(dict(d))
    e = Counter(x=1)
    e |= Counter(x=3, w=2)
    res.append(dict(e))
    f = Counter(x=4, y=2)
    f &= Counter(x=1, y=5)
    res.append(dict(f))
    res.append(Counter("hello") == {"h": 1, "e": 1, "l": 2, "o": 1})
    return res
