import re


def run():
    out = [
        re.findall(r"\t", "a\tb\tc"),
        re.findall(r"\x41+", "AAB"),
        re.findall(r"\u00e9", "café"),
        re.findall(r"\N{EM DASH}", "a—b—c"),
        re.findall(r"\101", "ABA"),
        re.findall(r"\.", "a.b.c"),
        re.split(r"\n", "l1\nl2"),
        re.findall(r"[\x00-\x1f]", "a\x01b\x1fc"),
    ]
    for bad in [r"\q", r"\N{NOT A REAL NAME}", r"\x4", r"\u12"]:
        try:
            re.compile(bad)
            out.append("ok")
        except re.error as e:
            out.append([type(e).__name__, str(e)])
    return out
