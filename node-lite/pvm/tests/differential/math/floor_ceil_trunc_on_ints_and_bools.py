import math

def run():
    big = 10**30 + 1
    return [math.floor(True), math.ceil(False), math.trunc(True), math.floor(-7), math.ceil(7), math.floor(big) == big,
            type(math.floor(True)).__name__, type(math.floor(2.5)).__name__, type(math.ceil(-0.5)).__name__, math.ceil(-0.5)]
