import math

def run():
    out = []
    for v in (8.0, 0.3, -1.0, 0.0, 1e300, 5e-324, 1):
        m, e = math.frexp(v)
        out.append([repr(m), e, math.ldexp(m, e) == v])
    out += [repr(math.ldexp(1, 10)), repr(math.ldexp(0.5, -1074)), repr(math.ldexp(1, -1080)), repr(math.ldexp(3, 0))]
    try:
        math.ldexp(1, 2000)
    except OverflowError as e:
        out.append([type(e).__name__, str(e)])
    return out
