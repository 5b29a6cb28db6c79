import operator
from functools import reduce, partial


def power(base, exp, mod=None):
    return pow(base, exp, mod)


def run():
    square = partial(power, exp=2)
    cube_mod = partial(power, exp=3, mod=7)
    two_to = partial(power, 2)
    nested = partial(partial(power, 3), 4)
    res = [
        reduce(operator.add, [1, 2, 3, 4]),
        reduce(lambda a, b: a * 10 + b, [1, 2, 3], 0),
        reduce(operator.add, [], 42),
        reduce(max, [3, 9, 2]),
        square(5), cube_mod(4), two_to(10), nested(),
        square(5, exp=3),
        list(square.args), sorted(square.keywords), square.func is power,
        list(nested.args),
    ]
    try:
        reduce(operator.add, [])
    except TypeError as e:
        res.append([type(e).__name__, str(e)])
    return res
