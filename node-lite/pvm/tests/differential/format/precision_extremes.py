def run():
    return [
        format(0.1, ".0f"),
        format(0.1, ".20f"),
        format(1 / 3, ".30f"),
        format(0.5, ".50f"),
        format(2.0 ** -20, ".25f"),
        format(1.0, ".0g"),
        format(123.456, ".1g"),
        format(123.456, ".0e"),
        format(9.999, ".2f"),
        format(9.9999, ".3g"),
        format(0.1, ".55e"),
        "%.40f" % 0.1,
    ]
