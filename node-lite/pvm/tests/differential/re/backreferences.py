# refused: re-linear-time
import re


def run():
    return [
        re.findall(r"\b(\w+)\s+\1\b", "this is is a test test of the the code"),
        re.sub(r"\b(\w+)\s+\1\b", r"\1", "this is is a test test"),
        bool(re.fullmatch(r"(?P<q>['\"]).*?(?P=q)", "'quoted'")),
        bool(re.fullmatch(r"(?P<q>['\"]).*?(?P=q)", "'mismatch\"")),
        re.findall(r"<(\w+)>.*?</\1>", "<b>bold</b> <i>it</b> <i>ok</i>"),
        bool(re.match(r"(a)?b\1", "b")),
        bool(re.match(r"(a)|b\1", "b")),
        bool(re.match(r"(?i)(ab)\1", "abAB")),
    ]
