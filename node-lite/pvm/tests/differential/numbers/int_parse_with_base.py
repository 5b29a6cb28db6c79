def run():
    return [
        int("ff", 16), int("FF", 16), int("0xff", 16), int("0o17", 8), int("0b101", 2),
        int("z", 36), int("  42  "), int("-0x1A", 16), int("1_000_000"), int("+7"),
        int("10", 0), int("0x10", 0), int("0o10", 0), int("0b10", 0), int("1_0", 0),
    ]
