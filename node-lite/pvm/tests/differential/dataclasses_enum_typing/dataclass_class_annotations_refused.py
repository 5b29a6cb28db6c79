# refused: dunder-attribute
from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: int = 0
    tags: tuple = ()


def run():
    return [list(Item.__annotations__), Item.__dataclass_fields__["tags"].default]
