def run():
    d = {"a": 1, "b": 2, "c": 3}
    keys = d.keys()
    d["d"] = 4
    return [list(keys), sorted(keys & {"a", "z"}), sorted(keys - {"a"}), list(d.values())[-1], ("b", 2) in d.items()]
