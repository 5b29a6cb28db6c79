import re


def run():
    return [
        re.sub(r"x*", "-", "abxd"),
        re.findall(r"\d*", "12 3"),
        re.split(r"\b", "hi there"),
        re.split(r"(?:,|)", "a,b"),
        [m.span() for m in re.finditer(r"\w*", "ab cd")],
        re.sub(r"\s*", "_", "a b"),
        re.subn(r"(?:b|)", "X", "abc"),
        re.split(r"x*", "axbc"),
        re.findall(r"(a)|b", "abc"),
        re.findall(r"", "abc"),
        re.sub(r"^", ">", "l1\nl2", flags=re.M),
        re.findall(r"\B", "ab c"),
        re.findall(r"\B", ""),
        re.search(r"\B|x", ""),
    ]
