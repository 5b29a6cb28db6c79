def run():
    return [
        format(-42, "=8"),
        format(-42, "*=8"),
        format(42, "+=8"),
        format(-3.5, "x=10.2f"),
        format(255, "=#10x"),
        format(-255, "0=#10x"),
        format(1234, "=+10,"),
        format(-12, "^9"),
        format(-12, "<+9") + "|",
        format(-0.5, "=9%"),
        "{:=8}".format(-7),
        "{:{}=8}".format(-7, "."),
    ]
