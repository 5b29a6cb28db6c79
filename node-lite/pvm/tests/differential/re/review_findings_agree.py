import re


def run():
    return [
        bool(re.match(r"(?u:\w)", "\u00e9", re.A)),
        bool(re.match(r"(?a:\w)", "\u00e9")),
        bool(re.match("(?ai)[\U00010400-\U00010427]", "\U00010428")),
        bool(re.match("(?ai)[\u0100-\U0010ffff]", "\u00b5")),
        re.sub("a", "x", "aaa", count=-1),
        re.subn("a", "x", "aaa", count=-2),
        re.split("a", "bab", maxsplit=-1),
        re.compile("").search("abc", 2, 1),
        re.compile("").findall("abc", 2, 1),
        re.compile("a*").match("abc", 2, 1),
        re.search(b"a", bytearray(b"xa")).group(),
        re.split(b"a", bytearray(b"xab")),
        re.sub(b"a", b"b", bytearray(b"aa")),
        re.sub("a", lambda m: None, "bab"),
        re.findall(r"(a)(b)?", "ab a"),
    ]
