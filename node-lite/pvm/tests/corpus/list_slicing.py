def run():
    xs = list(range(10))
    ys = xs[:]
    ys[2:5] = ["a", "b"]
    del ys[::3]
    zs = xs[::-1]
    zs[1:3] = []
    return [ys, zs, xs[-3:], xs[1:8:2], xs[8:2:-2]]
