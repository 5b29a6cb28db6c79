def inner(log):
    try:
        while True:
            x = yield "inner-ready"
            log.append(("inner got", x))
            if x == "stop":
                return "inner-result"
    except ValueError as e:
        log.append(("inner caught", str(e)))
        return "inner-after-throw"


def outer(log):
    r = yield from inner(log)
    log.append(("outer got", r))
    r2 = yield from inner(log)
    log.append(("outer got", r2))
    yield "outer-end"


def run():
    log = []
    g = outer(log)
    out = [next(g), g.send(1), g.send("stop"), g.throw(ValueError("v"))]
    return [out, [list(t) for t in log]]
