def run():
    out = []
    for s in ["ß", "ﬁ", "ŉ", "İ", "ǅ", "Straße", "ﬀ", "ΐ"]:
        up = s.upper()
        lo = s.lower()
        out.append([s, up, len(up), lo, len(lo), s.title(), s.capitalize()])
    return out
