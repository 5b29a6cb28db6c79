RESERVED = {"class", "None", "True", "def", "if", "lambda", "yield"}


def usable_field_name(n):
    return n.isidentifier() and n not in RESERVED


def run():
    names = ["valid_name", "_private", "2start", "with space", "", "class", "None", "ñandú",
             "名前", "a-b", "x1", "__dunder__", "℘x", "a\u0301", "match", "·x", "x·"]
    out = []
    for n in names:
        out.append([n, n.isidentifier(), usable_field_name(n)])
    out.append([s for s in ["if", "lambda", "yield", "case", "_", "é1", "1é"] if usable_field_name(s)])
    return out
