# Errors the interpreter raises from bytecode, as CPython 3.11 words them, whether an except
# clause binds them or they are read from a chained exception.
def unbound():
    if False:
        value = 1
    return value


def attempt(f):
    try:
        f()
    except Exception as e:
        return [type(e).__name__, str(e), e.args]


def run():
    out = [attempt(unbound)]
    out.append(attempt(lambda: [(a, b) for a, b in [(1, 2, 3)]]))
    def three():
        a, b = {"x": 1, "y": 2, "z": 3}
    out.append(attempt(three))
    def raise_int():
        raise 3
    out.append(attempt(raise_int))
    def raise_class():
        raise int
    out.append(attempt(raise_class))
    out.append(attempt(lambda: "ab" * 2.5))
    out.append(attempt(lambda: 2.5 * [1]))
    def imul():
        t = (1,)
        t *= 1.5
    out.append(attempt(imul))
    def assign():
        s = "abc"
        s[0] = "x"
    out.append(attempt(assign))
    def delete():
        t = (1, 2)
        del t[0]
    out.append(attempt(delete))
    def own():
        raise ValueError("local variable 'x' referenced before assignment")
    out.append(attempt(own))
    out.append(attempt(lambda: "%d" % "x"))
    out.append(attempt(lambda: "%(k)s %s" % {"k": 1}))
    return out
