def run():
    pairs = [("Straße", "STRASSE"), ("ﬁle", "FILE"), ("ΣΊΣΥΦΟΣ", "σίσυφοσ"), ("Ǆ", "ǆ"), ("µ", "μ")]
    out = []
    for a, b in pairs:
        out.append([a.casefold(), b.casefold(), a.casefold() == b.casefold(), a.lower() == b.lower()])
    out.append("ABC".casefold())
    out.append("İ".casefold())
    return out
