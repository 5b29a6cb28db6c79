log = []

def gen():
    try:
        yield 1
        yield 2
    finally:
        log.append("cleanup")

def run():
    g = gen()
    first = next(g)
    g.close()
    return [first, log]
