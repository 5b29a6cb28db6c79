import math

def run():
    return [math.comb(5, 2), math.comb(10, 0), math.comb(10, 10), math.comb(3, 5), math.comb(52, 5), math.comb(100, 50),
            math.perm(5, 2), math.perm(5), math.perm(5, 0), math.perm(3, 5), math.perm(10, 3), math.comb(True, True)]
