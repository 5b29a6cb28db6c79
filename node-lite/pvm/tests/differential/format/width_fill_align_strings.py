def run():
    s = "abc"
    return [
        format(s, "10"),
        format(s, "<10"),
        format(s, ">10"),
        format(s, "^10"),
        format(s, "*^10"),
        format(s, "-^8"),
        format(s, "^2"),
        "{:>6}|{:<6}|{:^6}".format("x", "y", "z"),
        f"[{s:_>7}]",
        f"[{'é':~^5}]",
        "{:{}>5}".format("a", "0"),
        f"{'ab':^5}|",
        format("", "*>3"),
    ]
