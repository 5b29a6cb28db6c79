# refused: re-linear-time
import re


def run():
    return [
        re.findall(r"(?=(\d\d))", "12345"),
        re.findall(r"\d\d", "12345"),
        [m.start() for m in re.finditer(r"(?=aa)", "aaaa")],
        len(re.findall(r"(?=(ana))", "banana")),
        re.findall(r"(?=(\w)\1)", "aabbcdd"),
    ]
