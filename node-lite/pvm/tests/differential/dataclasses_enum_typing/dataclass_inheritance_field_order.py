from dataclasses import dataclass, fields


@dataclass
class Base:
    id: int
    kind: str = "base"


@dataclass
class Derived(Base):
    size: int = 1
    kind: str = "derived"


def run():
    d = Derived(7)
    out = [repr(d), [f.name for f in fields(Derived)], repr(Derived(1, "k", 9)), isinstance(d, Base), d == Base(7, "derived")]
    try:
        @dataclass
        class Bad(Base):
            required: int
    except TypeError as e:
        out.append(str(e))
    try:
        @dataclass
        class Bad2:
            a: int = 1
            b: int
    except TypeError as e:
        out.append(str(e))
    return out
