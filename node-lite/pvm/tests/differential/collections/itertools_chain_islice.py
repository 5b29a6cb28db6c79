from itertools import chain, islice, count, cycle, repeat


def run():
    return [
        list(chain([1, 2], (3,), "ab")),
        list(chain.from_iterable([[1], [], [2, 3]])),
        list(islice(range(10), 3)),
        list(islice(range(10), 2, 8, 3)),
        list(islice(range(10), 5, None)),
        list(islice(count(5, 2), 4)),
        list(islice(count(), 0)),
        list(islice(cycle("xyz"), 7)),
        list(repeat("k", 3)),
        list(islice(repeat(0), 2)),
        list(map(pow, range(4), repeat(2))),
        list(islice(count(10, -3), 4)),
    ]
