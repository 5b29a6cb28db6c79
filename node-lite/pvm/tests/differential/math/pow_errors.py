import math

def run():
    out = []
    for args in ((-8, 1 / 3), (0, -1), (10, 400), (0.0, -2.5)):
        try:
            out.append(repr(math.pow(*args)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
