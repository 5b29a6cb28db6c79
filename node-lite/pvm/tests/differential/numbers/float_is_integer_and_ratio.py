def run():
    vals = [1.0, 1.5, -2.0, 0.1, 0.0, 1e300, 0.75]
    out = [[repr(v), v.is_integer(), list(v.as_integer_ratio())] for v in vals]
    out.append(float("inf").is_integer())
    for v in (float("inf"), float("nan")):
        try:
            v.as_integer_ratio()
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
