import re


def run():
    m = re.match(r"(\w)+", "abc")
    n = re.match(r"(?:(\d+),?)+", "1,22,333")
    o = re.match(r"(a|(b))+", "ab a")
    p = re.match(r"(a|(b))+", "ba")
    return [
        m.group(1), m.span(1),
        n.group(1), n.span(1),
        o.groups(), o.span(2),
        p.groups(), p.span(2),
        re.findall(r"(\w)+", "ab cde"),
    ]
