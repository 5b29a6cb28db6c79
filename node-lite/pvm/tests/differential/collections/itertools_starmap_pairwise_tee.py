import operator
from itertools import starmap, pairwise, tee


def run():
    a, b = tee(iter([1, 2, 3, 4]))
    first = [next(a), next(a)]
    rest_b = list(b)
    rest_a = list(a)
    x, y, z = tee("xyz", 3)
    return [
        list(starmap(pow, [(2, 3), (3, 2), (10, 0)])),
        list(starmap(operator.add, zip("abc", "xyz"))),
        list(starmap(lambda *args: len(args), [(), (1,), (1, 2)])),
        list(pairwise([1, 2, 3, 4])),
        list(pairwise("a")),
        ["".join(p) for p in pairwise("hello")],
        first, rest_a, rest_b,
        [list(x), "".join(y), len(list(z))],
    ]
