def run():
    s = "abc"
    out = []
    for f in (lambda: s[::0], lambda: s[3], lambda: s[-4], lambda: s["1"], lambda: s[1.0]):
        try:
            out.append(f())
        except (ValueError, IndexError, TypeError) as e:
            out.append([type(e).__name__, str(e)])
    try:
        s[0] = "x"
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    out.append(s[-3])
    out.append(s[True])
    return out
