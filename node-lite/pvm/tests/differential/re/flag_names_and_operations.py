import re


def run():
    flags = [re.I, re.A | re.I, re.I | re.M | re.X, re.NOFLAG, re.RegexFlag(1024 | 2), ~re.I, re.U]
    out = [[repr(f), str(f), f.name, int(f), [repr(m) for m in f]] for f in flags]
    out.append([repr(re.I & re.M), repr(re.I | 1), repr(2 | re.M), re.I == 2, re.I in (re.I | re.M)])
    out.append([type(re.I).__name__, repr(re.RegexFlag.IGNORECASE), re.I.value, bool(re.NOFLAG)])
    out.append([type(re.compile("a", re.I).flags).__name__, "%s" % re.S, f"{re.M}"])
    return out
