def run():
    vals = [1e300, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 1e-300, 1e15, 1e16,
            123456789012345678.0, 0.1, 1e-4, 1e-5]
    out = []
    for v in vals:
        out.append([repr(v), str(v), format(v, ".3e"), format(v, "g"), format(v, "")])
    out.append(format(1e22, "f"))
    out.append(format(2.0 ** 70, ",.0f"))
    out.append(format(1e-10, ".12f"))
    out.append(len(format(1e300, "f")))
    return out
