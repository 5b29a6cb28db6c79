def run():
    out = []
    for s in ["key=value=more", "novalue", "=start", "end=", ""]:
        out.append([list(s.partition("=")), list(s.rpartition("="))])
    out.append(list("a::b::c".partition("::")))
    out.append(list("a::b::c".rpartition("::")))
    try:
        "abc".partition("")
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    try:
        "abc".rpartition(None)
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
