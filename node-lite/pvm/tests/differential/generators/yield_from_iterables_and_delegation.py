def flatten(tree):
    for node in tree:
        if isinstance(node, list):
            yield from flatten(node)
        else:
            yield node


def chained():
    yield from "ab"
    yield from range(2)
    yield from {"k1": 1, "k2": 2}
    yield from (x * x for x in (3, 4))


def run():
    return [list(flatten([1, [2, [3, [4]], 5], [], [[6]]])), list(chained())]
