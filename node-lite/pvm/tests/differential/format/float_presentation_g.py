def run():
    vals = [0.0, 1.0, 100.0, 123456.0, 1234567.0, 0.0001, 0.00001, 1.5e-10, 123.456, 1e16, -0.5]
    out = []
    for v in vals:
        out.append([format(v, "g"), format(v, ".3g"), format(v, "G"), format(v, ".10g"), format(v, "")])
    out.append(format(1e-5, ".0g"))
    out.append(format(1234, "g"))
    out.append(format(10 ** 7, "g"))
    out.append(format(0.1, ".17g"))
    return out
