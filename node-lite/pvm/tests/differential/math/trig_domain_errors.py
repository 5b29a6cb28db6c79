import math

def run():
    out = []
    for f, v in ((math.sin, float("inf")), (math.cos, float("-inf")), (math.asin, 2), (math.acos, -1.5), (math.tan, float("inf"))):
        try:
            out.append(repr(f(v)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    out.append(repr(math.sin(float("nan"))))
    return out
