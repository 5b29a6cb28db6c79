from decimal import Decimal


def run():
    d = Decimal("9876543.21")
    out = []
    for spec in ["_", ",_", "_.2f", "10_", "z.1f", ",.2f", "_d", ".2_f", ".3,f", "_>14,.1f", ",", "+,.0f", "q", "<<", ".f", "=10", ""]:
        try:
            out.append(format(d, spec))
        except ValueError as e:
            out.append([spec, str(e)])
    out.append(f"{Decimal('-0.01'):z.1f}")
    return out
