def run():
    out = [
        format([1, 2]),
        format((1,), ""),
        format({"a": 1}),
        "{}".format([1, "x"]),
        "{:}".format((1, 2)),
        "{!s:>10}".format([1, 2]),
        "{!r:*^12}".format("k"),
        f"{[1, 2]!s:<8}|",
        format(b"ab"),
        format("obj", ">5"),
    ]
    for value in ([1, 2], (1,), {"a": 1}, b"ab"):
        try:
            out.append(format(value, ">10"))
        except TypeError as e:
            out.append([type(e).__name__, str(e)])
    return out
