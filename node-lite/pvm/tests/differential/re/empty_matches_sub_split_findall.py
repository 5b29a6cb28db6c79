import re


def run():
    return [
        re.sub("x*", "-", "abc"),
        re.sub("x*", "-", "axxb"),
        re.subn("x*", "-", "abc"),
        re.split("x*", "axbc"),
        re.split(r"\b", "hi there"),
        re.split("", "abc"),
        re.findall("x*", "axb"),
        re.findall(r"\b", "ab cd"),
        [m.span() for m in re.finditer(r"a*", "baac")],
        re.sub("", "-", ""),
    ]
