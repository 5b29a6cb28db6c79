from dataclasses import dataclass, field, fields


@dataclass(order=True)
class Player:
    score: int
    name: str = field(compare=False)
    token: str = field(default="t0", repr=False, compare=False)
    history: list = field(default_factory=list, repr=False, compare=False, hash=False)


def run():
    a = Player(10, "amy", "abc")
    b = Player(10, "bob")
    c = Player(5, "cy")
    ranked = sorted([a, b, c], reverse=True)
    return [
        repr(a),
        a == b,
        a < b,
        c < a,
        [p.name for p in ranked],
        a.token,
        [(f.name, f.repr, f.compare) for f in fields(Player)],
        [f.hash for f in fields(Player)],
    ]
