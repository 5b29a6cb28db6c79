def run():
    s = "hello world"
    out = [s.index("o"), s.rindex("o"), s.index("o", 5), s.rindex("l", 0, 5)]
    for call in (lambda: s.index("z"), lambda: s.rindex("h", 1), lambda: s.index("o", 8, 9),
                 lambda: s.index(5)):
        try:
            out.append(call())
        except (ValueError, TypeError) as e:
            out.append([type(e).__name__, str(e)])
    try:
        [1, 2].index(3)
    except ValueError as e:
        out.append(str(e))
    return out
