import math

def run():
    out = []
    for f, v in ((math.sqrt, -1), (math.sqrt, -1e-300), (math.isqrt, -1), (math.isqrt, 4.0), (math.sqrt, "4"), (math.sqrt, 10**400)):
        try:
            out.append(repr(f(v)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
