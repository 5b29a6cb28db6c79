from enum import StrEnum, auto


class Method(StrEnum):
    GET = auto()
    POST = auto()
    CUSTOM = "X-Custom"


def run():
    m = Method.GET
    out = [
        m.value,
        str(m),
        f"{m}",
        repr(m),
        m == "get",
        m.upper(),
        "/" + m,
        type("/" + m).__name__,
        Method("post").name,
        Method.CUSTOM.lower(),
        [str(x) for x in sorted(Method)],
        ",".join(Method),
        isinstance(m, str),
    ]
    try:
        class Bad(StrEnum):
            A = 1
    except TypeError as e:
        out.append(str(e))
    return out
