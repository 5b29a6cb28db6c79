import re


def attempt(f):
    try:
        return f()
    except (TypeError, ValueError, re.error) as e:
        return [type(e).__name__, str(e)]


def run():
    p = re.compile("a")
    return [
        attempt(lambda: re.compile(5)),
        attempt(lambda: re.search("a", 5)),
        attempt(lambda: re.search("a", b"a")),
        attempt(lambda: re.search(b"a", "a")),
        attempt(lambda: re.compile(p, re.I)),
        re.compile(p) is p,
        attempt(lambda: re.compile("a", re.A | re.U)),
        attempt(lambda: re.compile(b"a", re.U)),
        attempt(lambda: re.compile("(?L)a")),
        attempt(lambda: re.compile("a{2,1}")),
        attempt(lambda: re.compile("(?x)a\n(")),
        bool(re.search(b"a", bytearray(b"xa"))),
        [bytes(w) for w in re.compile(rb"\w+").findall(bytearray(b"ab cd"))],
        p == re.compile("a"),
        p == re.compile("a", re.I),
    ]
