import math


def run():
    return repr(math.exp(1000))
