def run():
    d = {i: i * i for i in range(10)}
    for k in list(d):
        if k % 3 == 0:
            del d[k]
    try:
        for k in d:
            d[k + 100] = 0
        err = "none"
    except RuntimeError as e:
        err = type(e).__name__
    return [sorted(d)[:6], err]
