import math

def run():
    out = [repr(math.dist((0, 0), (3, 4))), repr(math.dist([1, 2, 3], [4, 6, 3])), repr(math.dist((1,), (-4,))),
           repr(math.dist((), ())), repr(math.dist((1.5, 2.5), (1.5, 2.5)))]
    for args in (((1, 2), (1, 2, 3)), ([1, 2], (3, 4))):
        try:
            out.append(repr(math.dist(*args)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
