import math

def run():
    pairs = [(7, 3), (-7, 3), (7, -3), (-7, -3), (5.5, 2), (-5.5, 2), (1e17, 3)]
    out = [[repr(math.fmod(a, b)), repr(a % b)] for a, b in pairs]
    out.append(repr(math.fmod(-0.0, 1)))
    out.append(repr(-0.0 % 1))
    return out
