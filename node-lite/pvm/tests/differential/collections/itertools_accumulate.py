import operator
from itertools import accumulate


def run():
    return [
        list(accumulate([1, 2, 3, 4])),
        list(accumulate([1, 2, 3, 4], operator.mul)),
        list(accumulate([3, 1, 4, 1, 5, 9, 2], max)),
        list(accumulate([1, 2, 3], initial=100)),
        list(accumulate([], initial=7)),
        list(accumulate([])),
        list(accumulate(["a", "b", "c"])),
        list(accumulate([5, 2, 8], lambda acc, x: acc * 10 + x, initial=0)),
        list(accumulate([[1], [2], [3]])),
        list(accumulate(range(5), func=operator.sub)),
    ]
