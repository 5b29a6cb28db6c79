def run():
    return repr([float("1.5"), float("  -2 "), float("1e3"), repr(float(10 ** 20)), int(2.9e3), 3.0.is_integer(), (2.5).as_integer_ratio(), float.fromhex("0x1.8p1"), (0.5).hex()])
