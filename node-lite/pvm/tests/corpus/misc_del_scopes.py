def run():
    x = [1, 2, 3, 4]
    del x[1]
    d = {"a": 1, "b": 2}
    del d["a"]
    y = 5
    del y
    try:
        y
        status = "still"
    except NameError:
        status = "deleted"
    return [x, d, status]
