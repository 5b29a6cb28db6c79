def run():
    samples = ["café", "日本", "\U0001F600", "\u200b", "\u00a0", "\x85", "\u2028", "\ud800",
               "\U000e0001", "\u00ad", "Ω", "\x80"]
    out = []
    for s in samples:
        out.append([repr(s), ascii(s)])
    out.append(ascii(["é", 1, ("ñ",)]))
    out.append(ascii("plain"))
    return out
