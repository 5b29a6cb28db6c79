from typing import TYPE_CHECKING, Any, Final, Literal, cast, get_args, get_origin, get_type_hints

if TYPE_CHECKING:
    from collections import OrderedDict

MAX_SUPPLY: Final = 1000
RATE: Final[int] = 5

Side = Literal["buy", "sell"]


def place(side: Side, qty: int) -> "OrderedDict[str, int]":
    return {side: qty}


class Limits:
    CAP: Final[int] = 10
    mode: Literal["strict", "lax"] = "strict"


def run():
    raw: Any = "42"
    s = cast(str, raw)
    n = cast("int", 7)
    out = [
        TYPE_CHECKING,
        s,
        n,
        cast(list[int], [1]) == [1],
        MAX_SUPPLY + RATE,
        repr(Side),
        get_args(Side),
        get_origin(Side) is Literal,
        repr(Literal[1, 2] == Literal[2, 1]),
        place("buy", 3),
        {k: repr(v) for k, v in get_type_hints(place, localns={"OrderedDict": dict}).items()},
        {k: repr(v) for k, v in get_type_hints(Limits).items()},
        Limits.CAP,
    ]
    try:
        get_type_hints(place)
    except NameError as e:
        out.append(str(e))
    return out
