import math

def run():
    out = []
    for n in (2**1000, 2**1023, 2**1024 - 1, 2**1024, 2**1024 + 1, 10**308, 10**309, 10**400, 3**2000, 2**53 + 1, 2**54 + 3, True):
        out.append([repr(math.log(n)), repr(math.log2(n)), repr(math.log10(n)), repr(math.log(n, 10)), repr(math.log(n, 2**70))])
    for bad in (0, -1, False, -10**400):
        for f in (math.log, math.log2, math.log10):
            try:
                f(bad)
            except ValueError as e:
                out.append(str(e))
    return out
