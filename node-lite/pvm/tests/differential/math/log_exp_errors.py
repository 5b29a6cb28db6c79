import math

def run():
    out = []
    for f, args in ((math.log, (0,)), (math.log, (-1,)), (math.log2, (0,)), (math.log10, (-10,)), (math.log1p, (-1,)),
                    (math.exp, (1000,)), (math.log, (10, 1)), (math.log, (10, 0)), (math.expm1, (1000,))):
        try:
            out.append(repr(f(*args)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
