def run():
    return [
        format(255, "x"),
        "{:>5}".format(1),
        "{:<5}|".format(1.5),
        "{:^7}".format(-1),
        "{0:b} {0:o} {0:x} {0:X}".format(42),
        "{:,d}".format(10 ** 9),
        "{:e}".format(0),
        "{:s}".format("only-str"),
        "{:10.4}|".format(3.14159265),
        "{:<10.4}|".format(3.14159265),
        "{:.3}".format(1234.5),
        "{:g}".format(1e-300),
    ]
