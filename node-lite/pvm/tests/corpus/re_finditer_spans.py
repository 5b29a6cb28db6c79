import re

def run():
    return [[m.span() for m in re.finditer(r"o+", "foo boo ooo")], [m.group() for m in re.finditer(r"\b\w", "the quick fox")]]
