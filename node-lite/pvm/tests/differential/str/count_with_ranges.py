def run():
    s = "banana bandana"
    return [
        s.count("a"),
        s.count("an"),
        s.count("ana"),
        s.count("a", 7),
        s.count("a", 2, 6),
        s.count("a", -5),
        s.count(""),
        s.count("", 3, 5),
        "".count(""),
        "aaaa".count("aa"),
        s.count("x"),
        s.count("a", 100),
    ]
