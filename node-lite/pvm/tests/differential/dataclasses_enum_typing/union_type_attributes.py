import typing


def run():
    u = int | str
    t = type(u)
    return [
        t.__name__, t.__qualname__, repr(t), str(t),
        repr(u), repr(int | None), u == (str | int), isinstance(3, u), isinstance(b"", u),
        repr(typing.get_args(u)), repr(typing.get_origin(u)), repr(typing.Optional[int]),
        isinstance(u, t), type(int | str | bytes).__name__, repr(u | float),
    ]
