import re


def run():
    out = []
    for pattern, text in [
        (r"(a(b))", "ab"),
        (r"(a)(b)?", "a"),
        (r"(a)()", "a"),
        (r"(?:(a)|(b))+", "ab"),
        (r"(?:(a)|b)+", "ab"),
        (r"(?P<outer>x(?P<inner>y))z", "xyz"),
        (r"(\d+)-(\d+)", "10-20"),
    ]:
        m = re.search(pattern, text)
        out.append([m.lastindex, m.lastgroup, m.regs, m.groups()])
    m = re.match(r"(?P<word>\w+) (?P<num>\d+)?", "abc ")
    out.append([m.groupdict(), m.groupdict("-"), m.group("word", 0), m.span("num")])
    out.append(repr(re.match(r".*", "x" * 80)))
    out.append(repr(re.compile(r"a+", re.I | re.M)))
    out.append(repr(re.compile(rb"a+", re.I)))
    out.append(repr(re.compile(r"a", re.A)))
    index = re.compile(r"(?P<a>x)(y)").groupindex
    out.append([dict(index), type(index).__name__, index["a"]])
    return out
