from fractions import Fraction
import math

def run():
    pi = Fraction(math.pi)
    return [str(pi.limit_denominator(10)), str(pi.limit_denominator(100)), str(pi.limit_denominator(1000)),
            str(Fraction(0.1).limit_denominator()), str(Fraction("3.1415926535").limit_denominator(50000)),
            str(Fraction(1, 3).limit_denominator(2)), str(Fraction(-5, 7).limit_denominator(3))]
