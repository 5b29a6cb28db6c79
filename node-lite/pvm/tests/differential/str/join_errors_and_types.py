def run():
    out = [
        ",".join(["a", "b", "c"]),
        "".join(("x", "y")),
        "-".join("abc"),
        ", ".join([]),
        "/".join(["only"]),
        " ".join(str(n) for n in range(5)),
        "|".join({"k1": 1, "k2": 2}),
        "é".join(["a", "b"]),
    ]
    for arg in (["a", 1, "b"], [b"x"], 5, ["a", None]):
        try:
            out.append("-".join(arg))
        except TypeError as e:
            out.append([type(e).__name__, str(e)])
    return out
