def run():
    out = []
    for data in (b"abc\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"a\x80b"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            out.append([type(e).__name__, str(e), e.start, e.end, e.reason])
    try:
        "naïve".encode("ascii")
    except UnicodeEncodeError as e:
        out.append([type(e).__name__, str(e), e.start, e.end])
    try:
        "\ud800".encode("utf-8")
    except UnicodeEncodeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        "x".encode("no-such-codec")
    except LookupError as e:
        out.append([type(e).__name__, str(e)])
    return out
