def run():
    e1 = ValueError("one")
    e2 = ValueError("a", 2)
    e3 = KeyError("k")
    return [str(e1), str(e2), e2.args, str(e3), repr(e1)]
