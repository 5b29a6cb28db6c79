import math

def run():
    big = 10**300
    out = [repr(math.log(big)), repr(math.log10(big)), repr(math.log2(2**1023)), math.isqrt(big) == 10**150,
           math.gcd(big, 2**400) == 2**300, math.floor(big) == big, repr(math.sqrt(2**1000)), math.comb(60, 30)]
    for f in (lambda: math.sqrt(10**400), lambda: math.exp(big), lambda: math.fabs(-(10**400))):
        try:
            out.append(repr(f()))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
