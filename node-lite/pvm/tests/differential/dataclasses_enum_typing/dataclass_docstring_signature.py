from dataclasses import dataclass, field
from typing import List


@dataclass
class Item:
    name: str
    price: int = 1
    tags: list = field(default_factory=list)


@dataclass(frozen=True)
class Point:
    x: float
    y: List[float] = None


@dataclass
class Documented:
    """Keeps its own docstring."""
    a: int


def run():
    return [Item.__doc__, Point.__doc__, Documented.__doc__]
