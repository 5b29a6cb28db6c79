def make_counter(start=0):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count

    def peek():
        return count

    return increment, peek


def make_multipliers():
    return [lambda x, n=n: x * n for n in range(1, 4)]


def late_binding():
    fs = []
    for n in range(3):
        fs.append(lambda x: x + n)
    return [f(10) for f in fs]


def run():
    inc, peek = make_counter(5)
    a = inc()
    b = inc(10)
    inc2, peek2 = make_counter()
    inc2()
    return [a, b, peek(), peek2(), [m(2) for m in make_multipliers()], late_binding()]
