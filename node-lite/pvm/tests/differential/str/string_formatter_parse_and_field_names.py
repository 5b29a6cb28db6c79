import string


def run():
    cases = ["a{0:>3}b{{c}}{d!s}", "", "{}", "{{", "}}", "x}}y", "{0!r:>{w}}", "{a[}]}x", "{a[x:y]!s:z}", "}", "{", "a{", "{!", "{!r", "{!rx}", "{0:{", "{0!}", "{:}", "{ab!r}", "ab{c", "{a{b}", "{0:{1}{2}}", "é{x}ü"]
    out = []
    for c in cases:
        try:
            out.append(list(string.Formatter().parse(c)))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    names = ["a", "0", "a.b", "a[0]", "a[x].y", "0[1][2]", "", ".a", "a[", "a]", "a.", "a[]", "a..b", "12a", "a[0]b", "٣"]
    for n in names:
        try:
            out.append(string.Formatter().get_field(n, ([1, [2, [3]]],) * 3, {"a": {0: "z", "x": 1}, "٣": 5}))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
