def run():
    vals = [1, "s", 2.0, [1], (1,), {1: 2}, {1}, None, True, b"x"]
    return [type(v).__name__ for v in vals] + [isinstance(True, int), type(True) is bool, isinstance(None, object)]
