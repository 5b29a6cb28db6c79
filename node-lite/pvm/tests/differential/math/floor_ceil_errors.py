import math

def run():
    out = []
    for f, v in ((math.floor, float("inf")), (math.ceil, float("nan")), (math.trunc, float("-inf")), (math.floor, "3"), (math.floor, None)):
        try:
            out.append(f(v))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
