def attempt(value, spec):
    try:
        return format(value, spec)
    except ValueError as e:
        return str(e)


def run():
    cases = [(1, "5.5.5"), (1.0, ".f"), (1, "."), (1, "5."), (1.5, "10.2x5"), ("s", "5.5.5"),
             (1, ".."), (2.5, "9" * 25), ("ab", "05"), (7, "+08,d")]
    return [attempt(v, s) for v, s in cases]
