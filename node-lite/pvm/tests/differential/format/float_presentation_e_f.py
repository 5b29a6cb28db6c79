def run():
    vals = [0.0, 1.0, -2.5, 123.456, 0.000123456, 1e20, 6.02214076e23, 1 / 3]
    out = []
    for v in vals:
        out.append([format(v, "e"), format(v, ".2E"), format(v, "f"), format(v, ".3F"), format(v, ".0e")])
    out.append(format(12, "e"))
    out.append(format(12, ".1f"))
    out.append(format(-7, "F"))
    return out
