def run():
    vals = [1.0, 0.1, 1e16, 1e15, 123456789.123, 1e-5, 0.0001, -0.0, 2.0 ** 53, 1 / 3, 100.0]
    out = []
    for v in vals:
        out.append([str(v), format(v, ""), "{}".format(v), f"{v}", format(v, "10"), format(v, ".3")])
    out.append(format(1234.5, "<12") + "|")
    out.append(format(3.0, ".1"))
    out.append(format(12345.0, ".2"))
    return out
