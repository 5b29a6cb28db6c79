# refused: dunder-attribute
from typing import Literal

Side = Literal["buy", "sell"]


def place(side: Side, qty: int) -> "OrderedDict[str, int]":
    return {side: qty}


def run():
    return [Side.__args__, repr(place.__annotations__["side"]), place.__annotations__["return"]]
