import re

EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")


def run():
    samples = [
        "alice@example.com",
        "bob.smith+tag@mail.co.uk",
        "no-at-sign.example.com",
        "x@y",
        "trailing@dot.",
        "UPPER@EXAMPLE.ORG",
        "sp ace@example.com",
        "a@b.c0m",
    ]
    out = {}
    for s in samples:
        m = EMAIL.match(s)
        out[s] = bool(m)
    parts = re.match(r"(?P<user>[^@]+)@(?P<domain>.+)", "carol@sub.example.net")
    out["parts"] = parts.groupdict()
    return out
