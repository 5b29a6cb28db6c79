def run():
    vals = [0, 1, "", "a", [], [0], {}, {"k": 0}, None, 0.0, -0.5, (), set()]
    return [bool(v) for v in vals] + [not [], [] or "default", 0 and 1, 2 and 3]
