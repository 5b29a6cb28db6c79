def run():
    out = []
    cases = [("",), ("1__0",), ("_1",), ("1_",), ("1.5",), ("0x10",), ("08", 0), ("12", 2),
             ("abc",), ("1 2",), ("--1",), ("²",), ("10", 1), ("10", 37)]
    for args in cases:
        try:
            out.append(int(*args))
        except ValueError as e:
            out.append([type(e).__name__, str(e)])
    try:
        int(None)
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        int(5, 10)
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
