def run():
    s = "one two one two one"
    return [
        s.replace("one", "1"),
        s.replace("one", "1", 1),
        s.replace("one", "1", 2),
        s.replace("one", "1", 0),
        s.replace("one", "1", -1),
        s.replace("", "-"),
        "abc".replace("", "-", 2),
        "".replace("", "x"),
        "aaa".replace("aa", "b"),
        s.replace(" ", ""),
        "ababab".replace("ab", "ba", 2),
    ]
