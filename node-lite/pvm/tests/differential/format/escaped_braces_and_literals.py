def run():
    out = [
        "{{}}".format(),
        "{{{}}}".format(5),
        "{{0}} {0}".format("x"),
        "}}{{".format(),
        "%%d %d" % 4,
        "100%%" % (),
    ]
    for fmt in ("{", "}", "a}b", "{0", "x{{y}"):
        try:
            out.append(fmt.format(1))
        except ValueError as e:
            out.append([fmt, type(e).__name__, str(e)])
    return out
