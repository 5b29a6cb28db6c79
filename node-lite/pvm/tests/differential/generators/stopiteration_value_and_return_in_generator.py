def gen_with_return():
    yield 1
    return "result"


def gen_empty_return():
    return
    yield


def run():
    out = []
    g = gen_with_return()
    next(g)
    try:
        next(g)
    except StopIteration as e:
        out.append([e.value, list(e.args)])
    g2 = gen_empty_return()
    try:
        next(g2)
    except StopIteration as e:
        out.append([e.value, list(e.args)])
    out.append(list(gen_with_return()))
    out.append(next(gen_empty_return(), "default"))
    return out
