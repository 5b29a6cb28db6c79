def run():
    s = "e\u0301a\U0001F44D🏽"
    return [
        len(s),
        list(s),
        [ord(c) for c in s],
        list(reversed("abc")),
        list(enumerate("xy")),
        "".join(sorted("hello")),
        "abc"[1],
        len("ﬁ".upper()),
        len(s.encode("utf-8")),
        len(s.encode("utf-16-le")),
    ]
