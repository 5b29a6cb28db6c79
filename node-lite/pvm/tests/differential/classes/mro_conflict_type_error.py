class A:
    pass


class B(A):
    pass


class X:
    pass


class Y:
    pass


class P(X, Y):
    pass


class Q(Y, X):
    pass


def run():
    out = []
    try:
        type("C", (A, B), {})
    except TypeError as e:
        out.append(str(e))
    try:
        type("Z", (P, Q), {})
    except TypeError as e:
        out.append(str(e))
    try:
        class D(A, A):
            pass
    except TypeError as e:
        out.append(str(e))
    ok = type("OK", (B, A), {})
    out.append([c.__name__ for c in ok.mro()])
    out.append([issubclass(ok, A), isinstance(ok(), B)])
    return out
