def resource(log):
    log.append("open")
    try:
        yield 1
        yield 2
    except GeneratorExit:
        log.append("GeneratorExit")
        raise
    finally:
        log.append("cleanup")


def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield "refuse"


def run():
    log = []
    g = resource(log)
    next(g)
    g.close()
    g.close()
    unstarted = resource(log)
    unstarted.close()
    s = stubborn()
    next(s)
    try:
        s.close()
        err = None
    except RuntimeError as e:
        err = str(e)
    return [log, err]
