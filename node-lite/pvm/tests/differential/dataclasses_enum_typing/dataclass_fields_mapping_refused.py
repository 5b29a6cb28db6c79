# refused: dunder-attribute
from dataclasses import dataclass, field


@dataclass(order=True)
class Player:
    score: int
    name: str = field(compare=False)
    token: str = field(default="t0", repr=False, compare=False)


def run():
    return [Player.__dataclass_fields__["token"].repr, Player.__dataclass_fields__["name"].compare,
            list(Player.__dataclass_fields__)]
