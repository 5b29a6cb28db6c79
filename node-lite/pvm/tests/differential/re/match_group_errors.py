import re


def run():
    m = re.match(r"(?P<a>\d)(\w)?", "5")
    out = []
    for g in [0, 1, 2, "a"]:
        out.append(m.group(g))
    for bad in [3, "b", -1]:
        try:
            m.group(bad)
        except IndexError as e:
            out.append([type(e).__name__, str(e)])
    out.append(m[0])
    out.append(m["a"])
    out.append(m[2])
    return out
