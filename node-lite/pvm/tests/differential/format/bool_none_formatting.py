def run():
    out = [
        format(True),
        format(True, ""),
        format(True, "d"),
        format(False, "5"),
        format(True, ">6"),
        format(True, "^8"),
        format(True, "x"),
        format(True, ".2f"),
        "{}".format(False),
        f"{True!r:>6}",
        "%s %d %r" % (True, True, False),
        format(None),
        "{}".format(None),
        f"{None!s:>6}",
        "%s" % None,
    ]
    for value, spec in ((None, ">6"), (True, "s"), (None, "d")):
        try:
            out.append(format(value, spec))
        except (TypeError, ValueError) as e:
            out.append([type(e).__name__, str(e)])
    return out
