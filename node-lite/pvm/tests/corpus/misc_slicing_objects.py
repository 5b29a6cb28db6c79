def run():
    s = slice(1, 8, 2)
    xs = list(range(10))
    return [xs[s], s.indices(5), "abcdefgh"[s], xs[slice(None, None, -3)]]
