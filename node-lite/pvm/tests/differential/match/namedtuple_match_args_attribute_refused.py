# refused: dunder-attribute
from collections import namedtuple

Order = namedtuple("Order", ["side", "price", "qty"])


def run():
    return list(Order.__match_args__)
