def run():
    out = []
    for w in range(4, 9):
        out.append("abc".center(w, "*"))
    out.append("ab".center(5))
    out.append("ab".center(6, "-"))
    out.append("a".center(4, "."))
    out.append("abc".ljust(6, "_") + "|")
    out.append("abc".rjust(6, "0"))
    out.append("abcdef".ljust(3))
    out.append("abc".rjust(-1))
    out.append("é".center(5, "ñ"))
    try:
        "abc".center(10, "ab")
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
