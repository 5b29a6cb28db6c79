def run():
    return [[x * x for x in range(8)], [x for x in range(20) if x % 3 == 0 if x % 2 == 0], [(x, y) for x in range(3) for y in range(x)], [c.upper() for c in "abc"]]
