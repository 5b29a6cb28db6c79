def run():
    xs = [1.5, 2.25, 3.125, 4.0625]
    total = 0.0
    for x in xs:
        total += x
    return repr([total, total / len(xs), sum(xs), sum(x * x for x in xs)])
