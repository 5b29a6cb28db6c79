import math

def run():
    return [math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.0000001), math.isclose(1.0, 1.0000001, rel_tol=1e-6),
            math.isclose(0.0, 1e-10), math.isclose(0.0, 1e-10, abs_tol=1e-9), math.isclose(100, 101, rel_tol=0.01),
            math.isclose(100, 102, rel_tol=0.01), math.isclose(float("inf"), float("inf")), math.isclose(float("nan"), float("nan")),
            math.isclose(-1.0, 1.0, abs_tol=2.0), math.isclose(1e308, float("inf")), math.isclose(5, 5)]
