# refused: dunder-attribute
from collections import defaultdict


def run():
    d = defaultdict(list)
    m = d.__missing__("b")
    m.append(1)
    return [dict(d), m]
