def run():
    out = []
    for s in ["3.14", " -2.5 ", "1e3", "1E-3", "1_000.5", ".5", "5.", "inf", "-Infinity", "nan",
              "+NaN", "٣.٥", "1e400", "-1e-400", "0x10", "1__0", "", "1.2.3", "e5", "infinit"]:
        try:
            out.append([s, repr(float(s))])
        except ValueError as e:
            out.append([s, type(e).__name__, str(e)])
    return out
