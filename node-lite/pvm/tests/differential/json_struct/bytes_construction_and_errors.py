def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        bytes(3), bytes([65, 66]), bytes(range(3)), bytes("é", "utf-8"), bytes(b"x"),
        "é".encode(), "ab".encode("ascii"), b"\xc3\xa9".decode(), b"\xff".decode("latin-1"),
        attempt(lambda: bytes([256])), attempt(lambda: bytes("abc")),
        attempt(lambda: bytes(-1)), attempt(lambda: b"\xff".decode("utf-8")),
        attempt(lambda: "é".encode("ascii")),
        attempt(lambda: b"a" + "b"), attempt(lambda: b"abc"[5]),
        b"\xff".decode("utf-8", "replace"), b"a\xffb".decode("ascii", "ignore"),
        repr(b"\x00a'\""), repr(bytearray(b"\t\n")), str(b"x"),
        b"ab" * 3, b"ab" < b"b", b"" == bytes(), list(b"AZ"),
        b"%s-%d" % (b"k", 5),
    ]
