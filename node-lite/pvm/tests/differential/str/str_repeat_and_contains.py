def run():
    out = [
        "ab" * 3,
        3 * "ab",
        "ab" * 0,
        "ab" * -2,
        "" * 100,
        len("-" * 40),
        "ell" in "hello",
        "" in "abc",
        "" in "",
        "L" in "hello",
        "lo" not in "hello",
        "é" in "café",
    ]
    for f in (lambda: "ab" * 2.0, lambda: 1 in "abc", lambda: "ab" * "2", lambda: "a" + 1):
        try:
            out.append(f())
        except TypeError as e:
            out.append([type(e).__name__, str(e)])
    return out
