def run():
    out = []
    cases = [("%d", "x"), ("%s %s", ("a",)), ("%s", ("a", "b")), ("%(k)s", {"j": 1}), ("%z", 1),
             ("%d", None), ("%c", "ab"), ("%c", -1), ("%(k)s %s", {"k": 1}), ("%", ()), ("%x", 1.5),
             ("abc", 5), ("%(k", {"k": 1})]
    for fmt, args in cases:
        try:
            out.append(fmt % args)
        except (TypeError, ValueError, KeyError, OverflowError) as e:
            out.append([fmt, type(e).__name__, str(e)])
    return out
