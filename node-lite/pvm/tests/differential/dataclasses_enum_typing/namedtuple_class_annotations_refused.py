# refused: dunder-attribute
from typing import NamedTuple


class Point(NamedTuple):
    x: int
    y: int = 0
    label: str = "p"


def run():
    return {k: repr(v) for k, v in Point.__annotations__.items()}
