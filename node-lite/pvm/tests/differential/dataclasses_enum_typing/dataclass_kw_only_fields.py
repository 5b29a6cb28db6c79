from dataclasses import dataclass, field, KW_ONLY, fields


@dataclass(kw_only=True)
class Options:
    verbose: bool = False
    level: int


@dataclass
class Request:
    url: str
    _: KW_ONLY
    timeout: int = 30
    retries: int = 3


@dataclass
class Mixed:
    a: int
    b: int = field(kw_only=True, default=2)
    c: int = 3


def run():
    out = [repr(Options(level=2)), repr(Request("u", retries=1)), repr(Mixed(1, 5)), repr(Mixed(1, b=9))]
    out.append([(f.name, f.kw_only) for f in fields(Request)])
    for call in (lambda: Options(True, 1), lambda: Request("u", 10), lambda: Options()):
        try:
            call()
        except TypeError as e:
            out.append(str(e))
    return out
