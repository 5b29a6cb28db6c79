def run():
    out = []
    cases = [(1, "q"), (1.5, "d"), ("s", "d"), ("s", "+"), ("s", "="), ("s", "#"), (1, "=<5"),
             (1, "5.5.5"), (1.0, "x"), ("x", "z"), (1, ".f"), (1, "<<<"), ([1], ">5"), ((), "x"),
             (1, "999999999999999999999")]
    for value, spec in cases:
        try:
            out.append([spec, format(value, spec)])
        except (ValueError, TypeError, OverflowError) as e:
            out.append([spec, type(e).__name__, str(e)])
    return out
