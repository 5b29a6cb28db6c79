def run():
    a = {"x": 1, "y": 2, "z": 3}
    b = {"y": 20, "z": 3, "w": 4}
    ka, kb = a.keys(), b.keys()
    items_common = a.items() & b.items()
    keys = a.keys()
    a["q"] = 9
    live = list(keys)
    return [
        sorted(ka & kb), sorted(ka | kb), sorted(ka - kb), sorted(ka ^ kb),
        sorted(items_common), ka.isdisjoint({"m"}), sorted(ka & {"x", "nope"}),
        live, len(keys), "q" in keys, ("q", 9) in a.items(),
        list(reversed(a.keys())), list(reversed(a.values())),
        ka == {"x", "y", "z", "q"}, list(a.values()) == [1, 2, 3, 9],
        sorted(a.keys() - ["x"]),
    ]
