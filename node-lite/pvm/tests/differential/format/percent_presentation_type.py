def run():
    return [
        format(0.25, "%"),
        format(0.25, ".0%"),
        format(0.12345, ".2%"),
        format(1, "%"),
        format(-0.5, "+.1%"),
        format(1.0 / 3, ".3%"),
        format(0.005, ".0%"),
        format(0.015, ".0%"),
        format(12.5, ",.1%"),
        "{:>8.1%}".format(0.756),
        f"{2 / 3:.1%}",
        format(float("inf"), "%"),
    ]
