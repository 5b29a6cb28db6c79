def run():
    out = []
    for value, spec in ((-1, "c"), (0x110000, "c"), (65, "+c"), (65, "#c"), (65, "s"), (3.5, "d"),
                        (3.5, "x"), (3.5, "c"), ("a", "d"), (5, ".2d"), (5, ".2x")):
        try:
            out.append(format(value, spec))
        except (ValueError, OverflowError, TypeError) as e:
            out.append([repr(value), spec, type(e).__name__, str(e)])
    return out
