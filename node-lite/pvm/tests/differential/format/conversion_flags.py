def run():
    s = "café\n"
    return [
        "{!r}".format(s),
        "{!s}".format(s),
        "{!a}".format(s),
        "{0!r:>12}".format("x"),
        "{!r:^10}|".format(42),
        f"{s!r}",
        f"{s!a}",
        f"{'q' + 'x'!r:*<6}",
        "{!r} {!r} {!r}".format(None, True, 1.5),
        "{!s:.3}".format([1, 2, 3]),
        "{!a}".format(["é", "\U0001F600"]),
        f"{b'by'!s}",
    ]
