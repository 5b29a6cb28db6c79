def run():
    vals = [0.5, 2.5, -1.005, 1e-7, 123456789.0, 1e300, float("inf"), float("-inf"), float("nan")]
    out = []
    for v in vals:
        out.append(["%f" % v, "%.2f" % v, "%e" % v, "%g" % v, "%10.3g|" % v, "%s" % v, "%r" % v])
    out.append("%#.0f %#g %#x" % (3.0, 2.0, 0))
    out.append("%08.2f %-8.2f| %+.1e" % (-1.5, 1.5, 12345.0))
    return out
