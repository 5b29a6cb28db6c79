def run():
    import math
    return repr([0.1 + 0.2 == 0.3, math.isclose(0.1 + 0.2, 0.3), 1.0 == 1, sorted([2.5, -1.0, 0.0, 3]), max(1.5, 2), float("inf") > 10 ** 100, min(-0.0, 0.0) == 0])
