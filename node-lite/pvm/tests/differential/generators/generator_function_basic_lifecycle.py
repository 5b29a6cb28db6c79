def countdown(n, log):
    log.append("start")
    while n > 0:
        yield n
        n -= 1
    log.append("done")


def run():
    log = []
    g = countdown(3, log)
    before = list(log)
    first = next(g)
    rest = list(g)
    again = list(g)
    try:
        next(g)
        exhausted = None
    except StopIteration as e:
        exhausted = ["StopIteration", e.value]
    return [before, first, rest, again, log, exhausted, type(g).__name__]
