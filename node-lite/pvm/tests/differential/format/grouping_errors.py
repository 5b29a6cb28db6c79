def run():
    out = []
    for value, spec in ((10, ",x"), (10, ",b"), (10, ",_"), (10, "_,"), ("abc", ","), (10, ",c"),
                        (1.5, ",n"), (10, ",,")):
        try:
            out.append(format(value, spec))
        except ValueError as e:
            out.append([spec, type(e).__name__, str(e)])
    return out
