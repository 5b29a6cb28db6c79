from itertools import zip_longest, takewhile, dropwhile, filterfalse, compress


def run():
    return [
        list(zip_longest("abc", [1])),
        list(zip_longest([1, 2], [3], fillvalue=0)),
        list(zip_longest()),
        list(zip_longest("a", "bc", "def", fillvalue="-")),
        list(takewhile(lambda x: x < 5, [1, 4, 6, 2, 1])),
        list(dropwhile(lambda x: x < 5, [1, 4, 6, 2, 1])),
        list(takewhile(bool, [])),
        list(filterfalse(lambda x: x % 3, range(10))),
        list(filterfalse(None, [0, 1, "", "x", None, [], [0]])),
        list(compress("abcdef", [1, 0, 1, 0, 1, 1])),
        list(compress(range(10), [True, False])),
    ]
