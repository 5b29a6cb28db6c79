import keyword


def run():
    names = ["valid_name", "_private", "2start", "with space", "", "class", "None", "ñandú",
             "名前", "a-b", "x1", "__dunder__", "℘x", "a\u0301", "match", "·x", "x·"]
    out = []
    for n in names:
        out.append([n, n.isidentifier(), keyword.iskeyword(n)])
    out.append(keyword.issoftkeyword("match"))
    return out
