def run():
    out = [
        round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5),
        repr(round(2.675, 2)), repr(round(0.125, 2)), repr(round(0.375, 2)),
        repr(round(1234.5678, -2)), repr(round(-0.4)), repr(round(5.5, 0)),
        type(round(2.5)).__name__, type(round(2.5, 0)).__name__,
        repr(round(float("inf"), 2)), repr(round(1e300, -400)),
    ]
    for v in (float("inf"), float("nan")):
        try:
            out.append(round(v))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
