import dataclasses
from dataclasses import dataclass, field, fields, replace


@dataclass(frozen=True)
class Settings:
    host: str
    port: int = 80
    debug: bool = False
    cache: int = field(init=False, default=0)


def run():
    s = Settings("a.com")
    s2 = replace(s, port=443, debug=True)
    out = [repr(s), repr(s2), s is not s2]
    out.append([(f.name, f.type.__name__, f.init) for f in fields(s)])
    out.append([None if f.default is dataclasses.MISSING else f.default for f in fields(Settings)])
    out.append(fields(Settings)[0].default is dataclasses.MISSING)
    try:
        replace(s, bogus=1)
    except TypeError as e:
        out.append(str(e))
    try:
        replace(s, cache=5)
    except ValueError as e:
        out.append(str(e))
    out.append(dataclasses.is_dataclass(s))
    out.append(dataclasses.is_dataclass(Settings))
    out.append(dataclasses.is_dataclass(3))
    return out
