def run():
    out = []
    for f in [lambda: 1 / 0, lambda: [][1], lambda: {}["k"], lambda: int("x"), lambda: None.attr, lambda: undefined_name]:
        try:
            f()
        except Exception as e:
            out.append(type(e).__name__)
    return out
