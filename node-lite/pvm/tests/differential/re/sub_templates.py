import re


def run():
    return [
        re.sub(r"(\w+) (\w+)", r"\2 \1", "hello world foo bar"),
        re.sub(r"(\w+)@(\w+)", r"\g<2> at \g<1>", "me@home you@work"),
        re.sub(r"(?P<key>\w+)=(?P<val>\w+)", r"\g<val>:\g<key>", "a=1 b=2"),
        re.sub(r"(\d)", r"\g<1>0", "1 2 3"),
        re.sub(r"(a)", r"[\g<0>]", "banana"),
        re.sub(r"x", r"\n", "axb"),
        re.sub(r"x", "\\\\", "axb"),
        re.sub(r"(a)|b", r"<\1>", "ab"),
        re.subn(r"o", "0", "foo boo", count=2),
    ]
