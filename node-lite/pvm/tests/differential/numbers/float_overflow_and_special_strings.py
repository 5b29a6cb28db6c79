def run():
    out = [repr(float("1e309")), repr(float("-1e309")), repr(float("1e-400")), repr(float("Infinity")),
           repr(float(" -inf ")), repr(float("nan")), repr(float("-NaN")), repr(float("1_000.5")),
           repr(1e308 * 10), repr(float(".5")), repr(float("5."))]
    for f in (lambda: 2.0 ** 10000, lambda: float(10**400), lambda: float("1e"), lambda: 10**400 / 1):
        try:
            out.append(repr(f()))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
