import math

def run():
    vals = [0.0, -0.0, 1e308, float("inf"), float("-inf"), float("nan"), 5, True, 10**300, 5e-324]
    return [[math.isfinite(v), math.isinf(v), math.isnan(v)] for v in vals]
