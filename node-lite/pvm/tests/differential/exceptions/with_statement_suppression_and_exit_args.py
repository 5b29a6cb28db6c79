class Guard:
    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter")
        return "resource"

    def __exit__(self, exc_type, exc, tb):
        self.log.append(["exit", exc_type.__name__ if exc_type else None,
                         str(exc) if exc else None])
        return self.suppress


def run():
    log = []
    with Guard(log, True) as r:
        log.append(r)
        raise ValueError("inside")
    with Guard(log, False):
        log.append("clean body")
    try:
        with Guard(log, 0):
            raise KeyError("k")
    except KeyError as e:
        log.append("propagated " + repr(e))
    with Guard(log, "yes"):
        raise IndexError("truthy suppress")
    return log
