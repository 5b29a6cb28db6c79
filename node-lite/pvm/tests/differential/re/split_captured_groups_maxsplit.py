import re


def run():
    return [
        re.split(r",\s*", "a, b,c,   d"),
        re.split(r"(,)\s*", "a, b,c"),
        re.split(r"[;,]", "a;b,c;d", maxsplit=2),
        re.split(r"(;)|(,)", "a;b,c"),
        re.split(r"\s+", "  leading and trailing  "),
        re.split(r"x", "axbxc", 1),
        re.split(r"\d", "abc"),
        re.split(r"(\d)", "1a2"),
        re.split(r",", ""),
    ]
