# An ASCII \B holds between the bytes of a non-ASCII character only in the engine's view:
# Python's positions are characters, and CPython finds the empty match after them.
import re


def span(m):
    return m and m.span()


def run():
    return [
        span(re.search(r"(?a)\B", "aéa\n\n")),
        span(re.search(rb"\B", b"a\xe9a\n\n")),
        re.findall(r"(?a)\B", "aéa  "),
        re.sub(r"(?a)\B", "|", "xé.."),
        re.split(rb"\B", b"a\xe9a  "),
        span(re.search(r"(?a)(?:\B|\bz)", "aé--")),
        span(re.search(r"\B", "aé--", re.ASCII)),
        [m.span() for m in re.finditer(r"(?a)\B", "éé ü")],
    ]
