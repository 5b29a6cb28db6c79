def run():
    out = [(1.0).hex(), (0.1).hex(), (-2.5).hex(), (0.0).hex(), (-0.0).hex(), float("inf").hex(), (5e-324).hex()]
    out += [repr(float.fromhex(s)) for s in ("0x1.8p1", "0x.8", "-0x1p-2", "0XAp0", "inf", "  0x1.0p+3  ")]
    out.append(float.fromhex((3.14159).hex()) == 3.14159)
    try:
        float.fromhex("0x1g")
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    return out
