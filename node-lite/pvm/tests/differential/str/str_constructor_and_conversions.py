def run():
    return [
        str(),
        str(123),
        str(-0),
        str(True),
        str(None),
        str([1, "a"]),
        str(b"x\x00"),
        str(b"caf\xc3\xa9", "utf-8"),
        str(b"caf\xc3\xa9", encoding="latin-1"),
        str(bytearray(b"hi"), "ascii"),
        str(2 ** 70),
        str(1.0),
        str(1e22),
        str(0.1 + 0.2),
        str(-1.5e-7),
    ]
