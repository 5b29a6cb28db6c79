def run():
    parts = "a,b,,c".split(",")
    return [parts, "-".join(parts), " x  y z ".split(), "a b c".split(" ", 1), "1\n2\r\n3".splitlines()]
