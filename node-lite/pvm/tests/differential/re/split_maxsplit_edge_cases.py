import re


def run():
    s = "a1b2c3d"
    return [
        re.split(r"\d", s, maxsplit=0),
        re.split(r"\d", s, maxsplit=1),
        re.split(r"\d", s, maxsplit=10),
        re.split(r"(\d)", s, maxsplit=2),
        re.compile(r"\d").split(s, 2),
        re.split(r"\d", "1"),
        re.split(r"(?:x)|(y)", "axbyc"),
        re.split(r"[,\s]+", "1, 2,,3   4,"),
    ]
