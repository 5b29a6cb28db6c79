import re


def run():
    out = [
        re.findall(r"(?i)abc", "ABC abc AbC"),
        re.findall(r"(?m)^x", "x\nx\ny"),
        re.findall(r"(?s)a.b", "a\nb"),
        re.findall(r"(?x) a  b  c ", "abc"),
        re.findall(r"(?im)^abc$", "ABC\nabc"),
        re.findall(r"(?i:a)b", "Ab AB ab"),
        re.findall(r"(?i)a(?-i:b)", "Ab AB ab"),
        re.compile(r"(?i)x").flags & re.I != 0,
    ]
    try:
        re.compile(r"abc(?i)")
    except re.error as e:
        out.append([type(e).__name__, str(e)])
    return out
