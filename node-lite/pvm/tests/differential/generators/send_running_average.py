def averager():
    total = 0
    count = 0
    avg = None
    while True:
        value = yield avg
        if value is None:
            break
        total += value
        count += 1
        avg = total // count
    return (total, count)


def run():
    g = averager()
    primed = next(g)
    results = [g.send(10), g.send(20), g.send(33)]
    try:
        g.send(None)
    except StopIteration as e:
        final = list(e.value)
    fresh = averager()
    try:
        fresh.send(5)
        err = None
    except TypeError as e:
        err = str(e)
    return [primed, results, final, err]
