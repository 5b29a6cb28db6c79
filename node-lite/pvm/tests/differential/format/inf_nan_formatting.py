def run():
    inf = float("inf")
    nan = float("nan")
    out = []
    for v in (inf, -inf, nan):
        out.append([str(v), repr(v), format(v, "f"), format(v, "F"), format(v, ".2e"), format(v, "E"),
                    format(v, "g"), format(v, "G"), format(v, "+"), format(v, "*^9"), format(v, "08.2f"),
                    format(v, "%")])
    out.append("%f %F %e %g" % (inf, -inf, nan, inf))
    out.append("{:,}".format(inf))
    out.append(f"{-nan}")
    return out
