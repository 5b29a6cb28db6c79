import math

def run():
    out = []
    for f in (math.gamma, math.lgamma):
        for x in (0.0, -0.0, -1.0, -2.0, float("-inf"), float("inf"), 172.0, 2.6e305, 5e-324):
            try:
                out.append(repr(f(x)))
            except (ValueError, OverflowError) as e:
                out.append(type(e).__name__ + ": " + str(e))
    return out
