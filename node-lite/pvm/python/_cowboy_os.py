"""A harmless stand-in for ``os``, imported by standard-library modules the PVM embeds
(dataclasses → inspect, contextlib). It exposes the names those modules touch at import time
and nothing that reaches a filesystem, environment or process."""

name = "posix"
sep = "/"
curdir = "."
pardir = ".."
extsep = "."
altsep = None
pathsep = ":"
linesep = "\n"
devnull = "/dev/null"
environ = {}


def fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    raise TypeError("expected str or bytes")


def getcwd():
    return "/"


class PathLike:
    pass


class _Path:
    sep = "/"

    @staticmethod
    def basename(p):
        return p.rsplit("/", 1)[-1]

    @staticmethod
    def dirname(p):
        return p.rsplit("/", 1)[0] if "/" in p else ""

    @staticmethod
    def join(a, *parts):
        for p in parts:
            a = p if p.startswith("/") else a.rstrip("/") + "/" + p
        return a

    @staticmethod
    def splitext(p):
        i = p.rfind(".")
        return (p[:i], p[i:]) if i > p.rfind("/") + 0 and i > 0 else (p, "")

    @staticmethod
    def normcase(p):
        return p

    @staticmethod
    def isabs(p):
        return p.startswith("/")

    @staticmethod
    def exists(p):
        return False

    @staticmethod
    def abspath(p):
        return p


path = _Path()
