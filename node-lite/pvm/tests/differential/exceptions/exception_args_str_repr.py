def run():
    cases = [
        ValueError(),
        ValueError("x"),
        ValueError("a", 2),
        KeyError("k"),
        KeyError(),
        KeyError("a", "b"),
        IndexError(3),
        Exception(None),
        RuntimeError(""),
        StopIteration(5),
    ]
    return [[type(e).__name__, str(e), repr(e), list(e.args)] for e in cases]
