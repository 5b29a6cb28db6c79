from fractions import Fraction

def run():
    a, b = Fraction(1, 3), Fraction(3, 4)
    return [str(a + b), str(a - b), str(a * b), str(a / b), str(a ** 2), str(b ** -2), str(-a), str(a // b), str(b % a),
            str(Fraction(6, -4)), str(Fraction(0, 5)), str(a + 1), repr(a + 0.5), str(sum([Fraction(1, n) for n in range(1, 6)]))]
