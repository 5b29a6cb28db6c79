def factors(n):
    out = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out

def run():
    return [factors(n) for n in [2, 12, 97, 360, 2 ** 10 * 3 ** 3, 600851475143]]
