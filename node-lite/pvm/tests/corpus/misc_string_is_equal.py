def run():
    a = "co" + "wboy"
    b = "cowboy"
    return [a == b, a != "x", sorted([b, a, "abc"]), {a: 1}[b]]
