def run():
    out = [pow(3, -1, 7), pow(38, -1, 97), pow(5, -2, 13), pow(-3, -1, 11)]
    for args in ((2, -1, 4), (3, 2.0, 5), (3, -1, 0)):
        try:
            out.append(pow(*args))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
