def run():
    return [
        format(5, "f"),
        format(5, ".2f"),
        format(-5, "e"),
        format(123456789, "g"),
        format(7, "%"),
        format(2 ** 60, ".3e"),
        format(10 ** 17, "f"),
        format(0, "G"),
        "{:.1f}".format(True),
        "%.2f" % 3,
        "%e" % 10,
        f"{12:5.1f}|",
    ]
