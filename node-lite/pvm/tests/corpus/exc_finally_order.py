def f(log):
    try:
        log.append("try")
        return "returned"
    finally:
        log.append("finally")

def g(log):
    try:
        raise ValueError
    except ValueError:
        log.append("except")
    else:
        log.append("else")
    finally:
        log.append("finally2")

def run():
    log = []
    r = f(log)
    g(log)
    return [r, log]
