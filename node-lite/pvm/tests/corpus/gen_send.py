def accumulator():
    total = 0
    while True:
        x = yield total
        if x is None:
            break
        total += x

def run():
    g = accumulator()
    next(g)
    seen = [g.send(5), g.send(10), g.send(-3)]
    return seen
