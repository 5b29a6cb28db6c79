def inner(log):
    try:
        {}["missing"]
    except KeyError:
        log.append("inner handled, re-raising")
        raise


def middle(log):
    try:
        inner(log)
    except LookupError as e:
        log.append("middle got " + type(e).__name__)
        raise e


def run():
    log = []
    try:
        middle(log)
    except KeyError as e:
        log.append(repr(e))
        log.append(e.__context__ is None)
    return log
