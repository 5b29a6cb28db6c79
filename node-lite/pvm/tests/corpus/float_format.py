def run():
    x = 1234.56789
    return [f"{x:.2f}", f"{x:e}", f"{x:g}", f"{x:,.1f}", format(0.000012345, ".3g"), "%.4f" % 2 ** 0.5, str(1.0), str(1e16)]
