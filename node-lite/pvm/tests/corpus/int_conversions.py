def run():
    return [int("42"), int(" -17 "), int("ff", 16), int("0b101", 0), int("777", 8), int(3.99), int(-3.99), int(True), str(10 ** 20)]
