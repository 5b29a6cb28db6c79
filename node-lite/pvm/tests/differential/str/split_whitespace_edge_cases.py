def run():
    out = []
    out.append("  one\ttwo\nthree   ".split())
    out.append("  one two  ".split(" "))
    out.append("a\u3000b\u00a0c".split())
    out.append("a\x1cb\x1dc\x1ed\x1fe".split())
    out.append("a\x85b\u2028c".split())
    out.append("   ".split())
    out.append("   ".split(None, 1))
    out.append("  lead and trail  ".split(None, 1))
    try:
        "abc".split("")
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    return out
