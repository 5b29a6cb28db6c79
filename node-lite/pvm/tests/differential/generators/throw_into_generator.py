def worker(log):
    while True:
        try:
            item = yield "ready"
            log.append(("got", item))
        except ValueError as e:
            log.append(("recovered", str(e)))
            yield "recovered"
        except KeyError:
            log.append(("fatal",))
            raise


def run():
    log = []
    g = worker(log)
    out = [next(g), g.send(1), g.throw(ValueError("bad item")), next(g)]
    try:
        g.throw(KeyError("k"))
    except KeyError as e:
        out.append("propagated " + repr(e))
    try:
        next(g)
    except StopIteration:
        out.append("closed after error")
    return [out, [list(t) for t in log]]
