def run():
    x = "outer"
    ys = [x for x in range(3)]
    fs = [lambda i=i: i * 2 for i in range(3)]
    return [x, ys, [f() for f in fs]]
