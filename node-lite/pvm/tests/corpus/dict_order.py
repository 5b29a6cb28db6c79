def run():
    d = {}
    for k in ["delta", "alpha", "charlie", "bravo"]:
        d[k] = len(k)
    d["alpha"] = 0
    del d["charlie"]
    d["charlie"] = 7
    return list(d.items())
