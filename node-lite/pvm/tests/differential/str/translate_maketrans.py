def run():
    out = []
    t1 = str.maketrans("abc", "xyz")
    out.append(sorted(t1.items()))
    out.append("aabbcc-abc".translate(t1))
    t2 = str.maketrans("abc", "xyz", "-")
    out.append("aabbcc-abc".translate(t2))
    t3 = str.maketrans({"a": "AA", "b": None, "c": 100, ord("d"): "D"})
    out.append(sorted(t3.items()))
    out.append("abcd".translate(t3))
    out.append("hello".translate({ord("l"): "", ord("o"): "0"}))
    out.append("hello".translate({}))
    for args in (("ab", "x"), ({"ab": "x"},), (1,)):
        try:
            str.maketrans(*args)
        except (ValueError, TypeError) as e:
            out.append([type(e).__name__, str(e)])
    try:
        "abc".translate({ord("a"): 3.5})
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
