import re


def run():
    s = "cat concat cats scat cat."
    return [
        re.findall(r"\bcat\b", s),
        [m.start() for m in re.finditer(r"\bcat\b", s)],
        [m.start() for m in re.finditer(r"\Bcat\b", s)],
        [m.start() for m in re.finditer(r"\bcat\B", s)],
        re.sub(r"\b", "|", "a bc"),
        re.sub(r"\B", ".", "abc de"),
        re.findall(r"\b\d+\b", "12 a34 56b 78"),
    ]
