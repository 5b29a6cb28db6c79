def echo():
    received = []
    while len(received) < 3:
        x = yield len(received)
        received.append(x)
    return received


def accumulate():
    total = 0
    while True:
        delta = yield total
        if delta is not None:
            total += delta


def run():
    g = echo()
    out = [next(g), g.send("a"), next(g)]
    try:
        g.send("c")
    except StopIteration as e:
        out.append(e.value)
    acc = accumulate()
    seq = [next(acc), acc.send(5), next(acc), acc.send(-2)]
    return [out, seq]
