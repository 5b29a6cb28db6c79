def run():
    return [
        "a\tb\tc".expandtabs(),
        "a\tb\tc".expandtabs(4),
        "abcd\te".expandtabs(4),
        "abcde\tf".expandtabs(4),
        "\t".expandtabs(0),
        "a\tb".expandtabs(-3),
        "x\ty\nab\tc".expandtabs(3),
        "x\ty\r\tz".expandtabs(2),
        "01\t012\t0123\t01234".expandtabs(tabsize=5),
        "é\tx".expandtabs(3),
    ]
