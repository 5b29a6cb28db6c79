from itertools import islice, count, takewhile


def fibonacci():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def naturals():
    n = 1
    while True:
        yield n
        n += 1


def run():
    return [
        list(islice(fibonacci(), 12)),
        list(islice(fibonacci(), 5, 30, 5)),
        list(takewhile(lambda x: x < 50, (n * n for n in naturals()))),
        next(x for x in count(100, 7) if x % 5 == 0),
        list(islice(zip(naturals(), "abc"), 10)),
    ]
