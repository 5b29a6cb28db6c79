def run():
    out = [
        format(-0.0, ""),
        format(-0.0, ".1f"),
        format(-0.0001, ".2f"),
        format(-0.0001, "z.2f"),
        format(-0.0, "z"),
        format(-0.0, "+z.1f"),
        format(0.0, "+.1f"),
        format(-0.4, "z.0f"),
        format(-1e-20, "z.3e"),
        "%.1f" % -0.01,
        f"{-0.00001:z.3g}",
    ]
    try:
        format(-5, "z")
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    return out
