def run():
    log = []

    def tracked(x):
        log.append(x)
        return x * 10

    gen = (tracked(x) for x in range(5))
    before = list(log)
    first_two = [next(gen), next(gen)]
    mid = list(log)
    rest = list(gen)
    data = [1, 2, 3]
    lazy = (x for x in data)
    data.append(4)
    source = [1, 2]
    outer_eval = (x for x in source)
    source = [9, 9]
    return [before, first_two, mid, rest, list(lazy), list(outer_eval)]
