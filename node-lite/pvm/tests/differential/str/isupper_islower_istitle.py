def run():
    samples = ["ABC", "abc", "Abc", "ABC123", "123", "", "Hello World", "Hello world", "ǅ",
               "ß", "ΣΑ", "A1 B2", "It'S", "Dž Xy"]
    out = []
    for s in samples:
        out.append([s, s.isupper(), s.islower(), s.istitle()])
    return out
