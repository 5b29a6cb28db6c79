def run():
    total = 0
    for n in (x * x for x in range(50) if x % 5 == 0):
        total += n
    return [total, list(range(5))[1:-1], list(map(lambda p: p[0] * p[1], zip(range(3), range(3, 6))))]
