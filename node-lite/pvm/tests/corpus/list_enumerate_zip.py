def run():
    names = ["a", "b", "c"]
    vals = [10, 20, 30, 40]
    return [list(enumerate(names, 1)), list(zip(names, vals)), dict(zip(names, vals)), [i * v for i, v in enumerate(vals)]]
