import math

def run():
    vals = [2.5, -2.5, 2.0, -0.5, 0.5, 1e20, -1e-300, 3.9999999999999996]
    return [[repr(v), math.floor(v), math.ceil(v), math.trunc(v)] for v in vals]
