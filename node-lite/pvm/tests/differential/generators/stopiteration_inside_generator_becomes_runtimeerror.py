def leaky(it):
    while True:
        yield next(it)


def safe(it):
    while True:
        try:
            yield next(it)
        except StopIteration:
            return


def run():
    out = [list(safe(iter([1, 2])))]
    try:
        list(leaky(iter([1, 2])))
    except RuntimeError as e:
        out.append([type(e).__name__, str(e), type(e.__cause__).__name__])
    return out
