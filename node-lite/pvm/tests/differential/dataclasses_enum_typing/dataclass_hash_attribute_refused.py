# refused: dunder-attribute
from dataclasses import dataclass


@dataclass
class Plain:
    x: int


@dataclass(frozen=True)
class Point:
    x: int


def run():
    return [Plain.__hash__ is None, Point(1).__hash__ is not None]
