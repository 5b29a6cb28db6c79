def run():
    return ["{} {}".format(1, "a"), "{1}{0}".format("a", "b"), "{x:>5}|{y:<3}|".format(x=42, y="z"), "{:08.3f}".format(2.5), "{:,}".format(1234567), "{:b}".format(10), "{!r}".format("s")]
