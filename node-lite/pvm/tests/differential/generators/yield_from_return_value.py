def sub(items):
    total = 0
    for x in items:
        yield x
        total += x
    return total


def outer():
    a = yield from sub([1, 2])
    b = yield from sub([10])
    yield ("totals", a, b)
    return a + b


def run():
    g = outer()
    values = []
    while True:
        try:
            values.append(next(g))
        except StopIteration as e:
            return [values[:3], list(values[3]), e.value]
