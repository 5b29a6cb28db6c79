import math

def run():
    return [math.gcd(48, 180), math.lcm(4, 6), math.factorial(15), math.comb(10, 3), math.perm(5, 2), math.isqrt(99), math.prod([1, 2, 3, 4]), str(math.factorial(30))]
