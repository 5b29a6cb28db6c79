import re


def run():
    p = re.compile(r"\d+")
    anchored = re.compile(r"^\w")
    s = "ab12cd345ef"
    return [
        p.match(s, 2).group(),
        p.match(s) is None,
        p.search(s, 5).group(),
        p.search(s, 0, 3).group(),
        p.fullmatch(s, 6, 9).group(),
        p.findall(s, 3),
        [m.span() for m in p.finditer(s, 0, 8)],
        anchored.match(s, 2) is None,
        anchored.search(s, 2) is None,
        re.compile(r"\w$").search(s, 0, 4).group(),
        p.match(s, 2, 3).group(),
    ]
