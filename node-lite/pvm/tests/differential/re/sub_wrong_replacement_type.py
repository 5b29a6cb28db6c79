import re


def run():
    out = []
    for repl in [lambda m: 0, lambda m: [], lambda m: b"x"]:
        try:
            out.append(re.sub("a", repl, "bab"))
        except TypeError as e:
            out.append(str(e))
    try:
        re.sub("a", "x", "aaa", count=1.0)
    except TypeError as e:
        out.append(str(e))
    return out
