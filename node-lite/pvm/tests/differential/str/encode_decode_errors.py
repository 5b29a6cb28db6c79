def run():
    s = "café ☃ \U0001F600"
    out = [s.encode(), s.encode("utf-8"), len(s), len(s.encode())]
    for errors in ("ignore", "replace", "backslashreplace", "xmlcharrefreplace"):
        out.append(s.encode("ascii", errors))
    out.append(s.encode("latin-1", "replace"))
    bad = b"ok \xff\xfe end \xc3"
    for errors in ("ignore", "replace", "backslashreplace"):
        out.append(bad.decode("utf-8", errors))
    out.append(bad.decode("latin-1"))
    out.append(b"\xc3\xa9".decode("utf-8"))
    out.append(bytes("é", "utf-8"))
    out.append(str(b"\xc3\xa9", "utf-8"))
    out.append(str(b"abc"))
    return out
