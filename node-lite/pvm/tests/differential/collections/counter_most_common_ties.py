from collections import Counter


def run():
    c = Counter("abracadabra")
    d = Counter(["x", "y", "z", "y", "x", "w"])
    return {
        "all": c.most_common(),
        "top2": c.most_common(2),
        "zero": c.most_common(0),
        "ties": d.most_common(),
        "ties_top1": d.most_common(1),
        "missing": c["q"],
        "total": c.total(),
    }
