# refused: re-linear-time
import re


def run():
    return [
        bool(re.match(r"a*+a", "aaa")),
        bool(re.match(r"a*a", "aaa")),
        bool(re.fullmatch(r"(?>a+)b", "aaab")),
        bool(re.fullmatch(r"(?>a|ab)c", "abc")),
        bool(re.fullmatch(r"(?:a|ab)c", "abc")),
        re.findall(r"\d++", "12 345 6"),
        re.findall(r"x?+y", "xy y xxy"),
        re.match(r"\w{2,4}+", "abcdef").group(),
    ]
