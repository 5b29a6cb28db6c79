from collections import OrderedDict, defaultdict


def lookup(m):
    match m:
        case {0: "zero", 1: second}:
            return ["zero-first", second]
        case {"k": [x, y]}:
            return ["pair", x, y]
        case {"k": {"inner": value}}:
            return ["nested", value]
        case {"k": None}:
            return ["none value"]
        case _:
            return ["fallback"]


def run():
    dd = defaultdict(list)
    dd["other"] = 1
    return [
        lookup({0: "zero", 1: "one"}),
        lookup({1: "one", 0: "zero"}),
        lookup({0: "ZERO", 1: "one"}),
        lookup({"k": (3, 4)}),
        lookup({"k": "ab"}),
        lookup(OrderedDict(k={"inner": 7})),
        lookup({"k": None}),
        lookup(dd),
        dict(dd),
    ]
