import math

def run():
    vals = [3.75, -3.75, 0.0, -0.0, 5, 1e20, float("inf"), float("-inf"), 0.1]
    return [[repr(x) for x in math.modf(v)] for v in vals] + [type(math.modf(2)).__name__]
