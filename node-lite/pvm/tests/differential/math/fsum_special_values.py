import math

def run():
    out = [repr(math.fsum([float("inf"), 1.0])), repr(math.fsum([float("nan"), 1.0])), repr(math.fsum([-0.0, -0.0]))]
    for vals in ([float("inf"), float("-inf")], [1e308, 1e308]):
        try:
            out.append(repr(math.fsum(vals)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
