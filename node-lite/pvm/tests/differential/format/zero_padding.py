def run():
    return [
        format(42, "05"),
        format(-42, "05"),
        format(42, "+05"),
        format(3.14159, "08.3f"),
        format(-3.14159, "08.3f"),
        format(255, "08x"),
        format(1234567, "012,"),
        format(1234567, "012_"),
        format(-1.5, "010.2e"),
        "{:03d}-{:02d}".format(7, 5),
        format("ab", "05"),
        format(42, "0<5"),
        format(42, "0^6"),
        format(float("inf"), "08"),
        format(True, "03"),
    ]
