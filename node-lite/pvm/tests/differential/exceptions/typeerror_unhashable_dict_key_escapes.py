def run():
    index = {}
    index[["a", "b"]] = 1
    return index
