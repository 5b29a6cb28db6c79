def run():
    g = (x * 3 for x in range(5))
    first = next(g)
    rest = list(g)
    return [first, rest, sum(x for x in range(100) if x % 7 == 0), any(x > 3 for x in range(5)), all(x < 3 for x in range(5))]
