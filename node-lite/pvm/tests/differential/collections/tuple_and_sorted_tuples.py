def run():
    pts = [(2, 1, "c"), (1, 9, "a"), (2, 0, "b"), (1, 9, "A")]
    t = (1, 2, 3)
    a, *rest = t
    *init, last = t
    nested = ((1, 2), (3, (4, 5)))
    (p, q), (r, (s, u)) = nested
    single = (5,)
    return [
        sorted(pts), sorted(pts, key=lambda x: (-x[0], x[2])),
        sorted(pts, key=lambda x: x[:2], reverse=True),
        (1, 2) < (1, 2, 0), (1, 3) > (1, 2, 99), (0,) == (0,), () < (0,),
        a, rest, init, last, [p, q, r, s, u],
        t + single, t * 2, t[::-1], t.count(2), len(single),
        max(pts), min(pts, key=lambda x: x[1]),
        (1, [2]) == (1, [2]), tuple("ab") + tuple([1]),
    ]
