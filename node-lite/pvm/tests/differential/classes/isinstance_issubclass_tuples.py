class A:
    pass


class B(A):
    pass


class C:
    pass


def run():
    b = B()
    out = [
        isinstance(b, (C, A)),
        isinstance(b, (C, int)),
        isinstance(3, (str, (float, int))),
        issubclass(B, (C, A)),
        issubclass(B, B),
        issubclass(bool, int),
        isinstance(True, int),
        issubclass(A, object),
        isinstance(A, type),
        isinstance(b, object),
        isinstance(None, type(None)),
        issubclass(int, (str,)),
        isinstance(b, ()),
    ]
    try:
        issubclass(b, A)
    except TypeError as e:
        out.append(str(e))
    try:
        isinstance(b, "A")
    except TypeError as e:
        out.append(str(e))
    return out
