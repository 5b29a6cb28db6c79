def run():
    d = {"a": 1, "b": 2}
    d["c"] = 3
    del d["a"]
    d.update({"d": 4, "b": 20})
    return [d, list(d.keys()), list(d.values()), list(d.items()), "b" in d, len(d), d.get("z", -1)]
