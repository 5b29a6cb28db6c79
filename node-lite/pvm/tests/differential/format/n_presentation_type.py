def run():
    return [
        format(1234567, "n"),
        format(-1234567, "n"),
        format(1234.5678, "n"),
        format(0.00001234, "n"),
        format(1234567.0, "n"),
        format(1e20, "n"),
        format(12, "08n"),
        format(3.0, ".3n"),
        "{:n}".format(42),
    ]
