def run():
    return [repr(0.1 + 0.2), repr(1 / 3), repr(2.5 * 4), repr(7 / 2), repr(-0.0), repr(1e300 * 10), repr(float("nan") == float("nan")), str(1e-7), str(123456789.0 * 1000)]
