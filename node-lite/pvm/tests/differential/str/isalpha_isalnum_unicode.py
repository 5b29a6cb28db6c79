def run():
    samples = ["abc", "héllo", "日本", "ǅ", "a b", "", "Ⅻ", "ª", "a\u0301", "ß", "_", "ｶ", "x²"]
    out = []
    for s in samples:
        out.append([s, s.isalpha(), s.isalnum(), s.isascii()])
    return out
