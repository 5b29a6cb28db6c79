# refused: import-not-allowed
from contextlib import suppress


def run():
    out = []
    data = {"a": 1}
    with suppress(KeyError):
        out.append(data["a"])
        out.append(data["b"])
        out.append("not reached")
    with suppress(ValueError, TypeError):
        int(None)
    out.append("after tuple suppress")
    with suppress(LookupError):
        [][1]
    out.append("subclass suppressed")
    try:
        with suppress(KeyError):
            1 // 0
    except ZeroDivisionError as e:
        out.append(["escaped", str(e)])
    with suppress():
        out.append("empty suppress ok")
    return out
