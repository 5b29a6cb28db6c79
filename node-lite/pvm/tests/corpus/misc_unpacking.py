def run():
    a, (b, c), *d = 1, (2, 3), 4, 5
    x = y = [0]
    x.append(1)
    (p, q), r = "ab", "c"
    first, *_, last = range(10)
    return [a, b, c, d, y, p + q + r, first, last, [*"ab", *range(2)], {**{"a": 1}, "b": 2}]
