def run():
    out = []
    for args in (("12a",), ("0x10",), ("010", 0), ("", 10), ("1__0",), ("9", 8), ("1", 1), ("1", 37), ("1.5",)):
        try:
            out.append(int(*args))
        except ValueError as e:
            out.append([type(e).__name__, str(e)])
    return out
