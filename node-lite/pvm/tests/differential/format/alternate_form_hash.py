def run():
    return [
        format(255, "#x"),
        format(255, "#X"),
        format(255, "#o"),
        format(5, "#b"),
        format(-255, "#x"),
        format(0, "#x"),
        format(255, "#010x"),
        format(255, "#10x"),
        format(255, "<#10x"),
        format(3.0, "#.0f"),
        format(3.0, ".0f"),
        format(1.5, "#g"),
        format(100.0, "#.3g"),
        format(2.0, "#e"),
        format(2.0, "#.0e"),
        "%#x %#o %#X" % (26, 8, 26),
    ]
