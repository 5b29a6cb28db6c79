import math

def run():
    out = []
    for f, args in ((math.comb, (-1, 2)), (math.comb, (5, -1)), (math.perm, (-5, 2)), (math.comb, (5.0, 2)), (math.perm, (5, 2.5))):
        try:
            out.append(f(*args))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
