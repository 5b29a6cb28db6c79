# refused: dunder-attribute
from dataclasses import dataclass


@dataclass(slots=True)
class Pos:
    x: int
    y: int = 0


@dataclass
class Shape:
    kind: str
    size: int


def run():
    return [Pos.__slots__, Shape.__match_args__, Pos.__match_args__]
