import re


def run():
    s = "Hello, World! 123_abc-DEF [x] ^caret a\\b"
    return [
        re.findall(r"[A-Z]", s),
        re.findall(r"[^a-zA-Z\s]", s),
        re.findall(r"[\w-]+", s),
        re.findall(r"[]x[]", s),
        re.findall(r"[\^]\w+", s),
        re.findall(r"[a\\]", "a\\b"),
        re.findall(r"[-a]", "a-b"),
        re.findall(r"[\d.]+", "v1.2.3 and 4"),
        re.findall(r"[\s\S]", "a\nb"),
        re.findall(r"[^\W\d_]+", "abc_12def"),
    ]
