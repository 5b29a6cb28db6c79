# refused: re-linear-time
import re


def run():
    text = "$100 and €200 and 300 and $4.50"
    out = [
        re.findall(r"(?<=\$)\d+(?:\.\d+)?", text),
        re.findall(r"(?<![$€\d.])\b\d+", text),
        re.sub(r"(?<=a)b", "X", "ab cb abab"),
        re.sub(r"(?<!a)b", "X", "ab cb abab"),
        re.findall(r"(?<=-)\w+", "x-y-zz"),
        [m.span() for m in re.finditer(r"(?<=ab|cd)e", "abe cde xe")],
    ]
    try:
        re.compile(r"(?<=a+)b")
    except re.error as e:
        out.append([type(e).__name__, str(e)])
    return out
