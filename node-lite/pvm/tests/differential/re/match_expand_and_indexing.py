import re


def run():
    m = re.search(r"(?P<first>\w+)\s+(?P<last>\w+)", "Name: Ada Lovelace")
    return [
        m.expand(r"\g<last>, \g<first>"),
        m.expand(r"\2 \1"),
        m.expand(r"[\g<0>]"),
        m[1], m["last"], m[0],
        m.start(), m.end(), m.span("last"),
        m.group(1, "last", 0),
        m.lastindex, m.lastgroup,
    ]
