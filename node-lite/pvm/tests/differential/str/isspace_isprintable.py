def run():
    samples = [" ", "\t\n\r\x0b\x0c", "\x1c\x1d\x1e\x1f", "\x85", "\u00a0", "\u200b", "\u3000", "\u2028",
               "", "abc", "a\tb", "\x7f", "\u00ad", "é", "\U0001F600", "\ufeff", " x "]
    out = []
    for s in samples:
        out.append([ascii(s), s.isspace(), s.isprintable()])
    return out
