def numbers(log):
    try:
        for i in range(10):
            yield i
    finally:
        log.append("finally ran")


def run():
    log = []
    g = numbers(log)
    taken = []
    for n in g:
        if n == 2:
            break
        taken.append(n)
    log.append("after break")
    g.close()
    log.append("after close")
    log2 = []
    first = next(x for x in numbers(log2) if x > 3)
    return [taken, log, first]
