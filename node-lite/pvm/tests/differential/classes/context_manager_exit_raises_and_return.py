class Translate:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is KeyError:
            raise LookupError("translated") from exc
        return False


class Closer:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.log.append("closed")


def use(log, n):
    with Closer(log):
        if n > 0:
            return "early"
        log.append("body")
    return "late"


def run():
    out = []
    try:
        with Translate():
            {}["missing"]
    except LookupError as e:
        out.append([type(e).__name__, str(e), type(e.__cause__).__name__, e.__suppress_context__])
    log = []
    out.append(use(log, 1))
    out.append(use(log, 0))
    out.append(log)
    try:
        with 42:
            pass
    except TypeError as e:
        out.append(type(e).__name__)
    return out
