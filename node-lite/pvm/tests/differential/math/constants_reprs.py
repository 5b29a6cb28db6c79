import math

def run():
    return [repr(math.pi), repr(math.e), repr(math.tau), repr(math.inf), repr(-math.inf), repr(math.nan), str(math.pi),
            math.tau == 2 * math.pi, math.inf == float("inf"), math.isnan(math.nan), math.nan == math.nan,
            type(math.pi).__name__, f"{math.pi:.5f}", f"{math.e:.3e}"]
