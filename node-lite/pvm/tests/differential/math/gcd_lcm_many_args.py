import math

def run():
    return [math.gcd(12, 18), math.gcd(12, 18, 27), math.gcd(), math.gcd(0, 0), math.gcd(-12, 18), math.gcd(7),
            math.gcd(0, -5), math.gcd(2**100, 6**50), math.lcm(4, 6), math.lcm(4, 6, 10), math.lcm(), math.lcm(0, 5),
            math.lcm(-4, 6), math.lcm(3), math.gcd(True, 4)]
