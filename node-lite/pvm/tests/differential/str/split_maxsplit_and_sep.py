def run():
    s = "a,b,,c,d"
    return [
        s.split(","),
        s.split(",", 1),
        s.split(",", maxsplit=2),
        s.split(",", 0),
        s.split(",", -1),
        s.split(",,"),
        "".split(","),
        "".split(),
        "abc".split("abc"),
        "x--y--z".split("--", 1),
    ]
