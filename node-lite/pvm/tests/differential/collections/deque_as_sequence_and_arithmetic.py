import copy
from collections import abc, deque


class Sub(deque):
    pass


def shape(value):
    match value:
        case [first, *rest]:
            return ["sequence", first, len(rest)]
        case _:
            return ["other"]


def errors(d):
    out = []
    for bad in (lambda: d + [1], lambda: d * "x"):
        try:
            bad()
        except TypeError as e:
            out.append(str(e))
    return out


def run():
    d = deque([1, 2, 3], maxlen=4)
    s = Sub([5, 6])
    return [
        type(d + d) is deque, list(d + d), (d + d).maxlen, list(d * 2), list(2 * d),
        list(d * 0), type(copy.copy(d)) is deque, type(d.copy()) is deque, repr(d),
        isinstance(d, abc.MutableSequence), issubclass(deque, abc.Sequence),
        type(d).__name__, type(d).__qualname__, type(s + s).__name__, repr(s * 2),
        shape(d), shape(s), shape(deque()), errors(d),
    ]
