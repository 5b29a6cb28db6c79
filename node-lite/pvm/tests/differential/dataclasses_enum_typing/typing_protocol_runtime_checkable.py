from typing import Protocol, runtime_checkable


@runtime_checkable
class Closeable(Protocol):
    def close(self) -> None:
        ...


class Named(Protocol):
    name: str


class File:
    def __init__(self):
        self.closed = False

    def close(self) -> None:
        self.closed = True


class Socket:
    def shutdown(self):
        pass


def close_all(items: "list[Closeable]") -> int:
    n = 0
    for it in items:
        it.close()
        n += 1
    return n


def run():
    f = File()
    out = [isinstance(f, Closeable), isinstance(Socket(), Closeable), issubclass(File, Closeable), close_all([f]), f.closed]
    try:
        isinstance(f, Named)
    except TypeError as e:
        out.append(str(e))
    try:
        Closeable()
    except TypeError as e:
        out.append(str(e))
    return out
