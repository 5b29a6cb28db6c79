def numbers():
    yield from range(1, 21)

def evens(xs):
    for x in xs:
        if x % 2 == 0:
            yield x

def squared(xs):
    for x in xs:
        yield x * x

def run():
    return list(squared(evens(numbers())))
