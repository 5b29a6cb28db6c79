def run():
    s = "abracadabra"
    return [
        s.find("a"),
        s.find("a", 1),
        s.find("a", 1, 3),
        s.find("bra", -4),
        s.find("zz"),
        s.rfind("a"),
        s.rfind("a", 0, -1),
        s.rfind("abra", 0, 4),
        s.find(""),
        s.find("", 5),
        s.find("", 20),
        s.rfind(""),
        s.find("a", -100, 100),
        s.find("a", None, None),
    ]
