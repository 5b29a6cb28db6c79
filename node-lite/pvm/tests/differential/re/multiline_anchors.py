import re


def run():
    text = "first line\nsecond line\nthird\n"
    return [
        re.findall(r"^\w+", text),
        re.findall(r"^\w+", text, re.MULTILINE),
        re.findall(r"\w+$", text),
        re.findall(r"\w+$", text, re.M),
        re.findall(r"\A\w+", text, re.M),
        bool(re.search(r"third\Z", text)),
        bool(re.search(r"third$", text)),
        bool(re.search(r"third\n\Z", text)),
        re.findall(r"^$", "a\n\nb", re.M),
        [m.start() for m in re.finditer(r"$", "ab\ncd\n", re.M)],
    ]
