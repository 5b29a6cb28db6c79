def run():
    log = []

    def double(x):
        log.append(("map", x))
        return x * 2

    def even(x):
        log.append(("filter", x))
        return x % 2 == 0

    pipeline = filter(even, map(double, [1, 2, 3]))
    untouched = len(log)
    first = next(pipeline)
    after_first = len(log)
    rest = list(pipeline)
    z = zip([1, 2, 3], "ab")
    zipped = list(z)
    it = iter([1, 2, 3, 4, 5])
    pairs = list(zip(it, it))
    leftover = list(it)
    strict_err = None
    try:
        list(zip([1, 2], [1], strict=True))
    except ValueError as e:
        strict_err = str(e)
    return [untouched, first, after_first, rest, [list(t) for t in log],
            [list(t) for t in zipped], [list(p) for p in pairs], leftover,
            list(map(pow, [2, 3], [3, 2])), list(filter(None, [0, 1, "", "a", None])),
            strict_err]
