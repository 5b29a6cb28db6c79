import math

def run():
    out = []
    for v in (-1, 2.5, 5.0, "5", -0.0):
        try:
            out.append(math.factorial(v))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
