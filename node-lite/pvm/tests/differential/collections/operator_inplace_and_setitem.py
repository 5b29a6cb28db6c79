import operator
from functools import reduce


def run():
    lst = [1, 2]
    same = operator.iadd(lst, [3])
    t = (1,)
    t2 = operator.iadd(t, (2,))
    d = {"a": 1}
    operator.setitem(d, "b", 2)
    operator.delitem(d, "a")
    nums = [3, 4, 5]
    prod = reduce(operator.mul, nums, 1)
    s = "x"
    s2 = operator.imul(s, 3)
    pairs = list(map(operator.itemgetter(0), [(1, 2), (3, 4)]))
    return [lst, same is lst, list(t), list(t2), d, prod, s2, pairs,
            operator.length_hint([1, 2, 3]), operator.length_hint(iter([]), 5),
            operator.is_(None, None), operator.is_not(1, None)]
