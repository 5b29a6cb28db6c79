from dataclasses import dataclass, field


@dataclass
class Cart:
    owner: str
    items: list = field(default_factory=list)
    meta: dict = field(default_factory=lambda: {"v": 1})


def run():
    a = Cart("a")
    b = Cart("b")
    a.items.append("x")
    a.meta["v"] = 2
    out = [a.items, b.items, a.meta, b.meta, repr(b)]
    for default in ([], {}, set()):
        try:
            @dataclass
            class Bad:
                values: object = default
        except ValueError as e:
            out.append(str(e))
    try:
        @dataclass
        class Both:
            x: list = field(default=1, default_factory=list)
    except ValueError as e:
        out.append(str(e))
    return out
