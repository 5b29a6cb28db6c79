def run():
    path = "pkg.module.sub.Name"
    return [
        path.rsplit(".", 1),
        path.rsplit(".", maxsplit=2),
        path.rsplit("."),
        "  a  b  c  ".rsplit(None, 1),
        "  a  b  c  ".rsplit(maxsplit=1),
        "a b c".rsplit(" ", 0),
        "aaaa".rsplit("aa", 1),
        "aaa".split("aa"),
        "aaa".rsplit("aa"),
    ]
