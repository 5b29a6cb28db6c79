def run():
    vals = [0.1, 0.1 + 0.2, 1/3, 2/3, 1e16, 1e-7, 123456789012345678.0, 5e-324, 1.7976931348623157e308, 100.0, 1e22, 1e-5, 0.0001]
    return [[repr(v), str(v), float(repr(v)) == v] for v in vals]
