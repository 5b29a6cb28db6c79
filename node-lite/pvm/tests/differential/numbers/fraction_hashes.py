from fractions import Fraction


def run():
    half = Fraction(1, 2)
    return [
        hash(Fraction(5, 1)) == hash(5),
        hash(half) == hash(0.5),
        hash(Fraction(1, 3)),
        hash(Fraction(-7, 3)),
        len({half, 0.5, Fraction(2, 4)}),
        {Fraction(1, 3): "third"}[Fraction(2, 6)],
        [str(f) for f in sorted({Fraction(1, 3), Fraction(1, 2), Fraction(1, 3)})],
    ]
