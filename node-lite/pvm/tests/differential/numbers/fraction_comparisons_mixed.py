from fractions import Fraction

def run():
    h = Fraction(1, 2)
    return [h == 0.5, h < 1, h > 0.4999, Fraction(1, 3) == 1 / 3, Fraction(2, 1) == 2, h != Fraction(2, 4),
            max(h, 0.6) == 0.6, sorted([Fraction(2, 3), 0.5, 1, Fraction(-1, 2)], key=float) == [Fraction(-1, 2), 0.5, Fraction(2, 3), 1],
            type(h + 1).__name__, type(h + 1.0).__name__, type(h * 2).__name__, Fraction(1, 10) == 0.1]
