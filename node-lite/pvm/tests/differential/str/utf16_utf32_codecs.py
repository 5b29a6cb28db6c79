def attempt(f):
    try:
        r = f()
        return ["ok", ascii(r) if isinstance(r, str) else r]
    except (UnicodeError, TypeError) as e:
        return [type(e).__name__, str(e)]


def run():
    texts = ["", "abc", "caf\u00e9", "\U0001F44D x", "a\ud800b", "\udc00\udfff"]
    blobs = [b"", b"a\x00b\x00", b"\xff\xfea\x00", b"\xfe\xff\x00a", b"a\x00\xff", b"\x00\xd8a\x00",
             b"\x00\xdc", b"=\xd8M\xdc", b"=\xd8", b"\xff\xfe\x00\x00A\x00\x00\x00", b"\x00\x00\x11\x00",
             b"\x00\xd8\x00\x00"]
    encodings = ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "UTF16", "utf_32"]
    handlers = ["strict", "ignore", "replace", "surrogatepass", "backslashreplace", "xmlcharrefreplace"]
    out = []
    for enc in encodings:
        for t in texts:
            for h in handlers:
                out.append(attempt(lambda: t.encode(enc, h)))
        for b in blobs:
            for h in handlers[:5]:
                out.append(attempt(lambda: b.decode(enc, h)))
    out.append(attempt(lambda: "x".encode("utf-16", errors=5)))
    out.append(attempt(lambda: b"x".decode("utf-16", None)))
    out.append(attempt(lambda: bytearray(b"x\x00").decode("utf-16-le", 1.5)))
    out.append("h\u00e9llo".encode("utf-16-le").decode("utf-16-le"))
    out.append(len("\U0001F44D".encode("utf-16")))
    return out
