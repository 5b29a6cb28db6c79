def inner():
    yield 1
    yield 2
    return "inner-done"

def outer():
    r = yield from inner()
    yield r
    yield from range(3, 5)

def run():
    return list(outer())
