def run():
    d = {1: "int", "1": "str", (1, 2): "tuple", None: "none", True: "bool?"}
    return [d[1], d["1"], d[(1, 2)], d[None], len(d), sorted(str(k) for k in d)]
