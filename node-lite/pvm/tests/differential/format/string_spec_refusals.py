def attempt(value, spec):
    try:
        return format(value, spec)
    except ValueError as e:
        return str(e)


def run():
    specs = ["+", "-", " ", "#", "=5", ",", "_", "z", "d", ">+5", "0=5", "5,", ".3", "<5.2s", "x<5", "*^7"]
    out = [attempt("s", spec) for spec in specs]
    out.append(["{:+}".format("x") if False else attempt("word", "+10")])
    try:
        out.append(f"{'name':#>8}")
        out.append(f"{'name':#8}")
    except ValueError as e:
        out.append(str(e))
    return out
