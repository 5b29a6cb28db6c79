def run():
    out = [int(3.99), int(-3.99), int(True), int(), int(b"12"), int(" -5\n"), int(1e20), int(-0.0)]
    for v in (float("inf"), float("nan"), None, "3.0"):
        try:
            out.append(int(v))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
