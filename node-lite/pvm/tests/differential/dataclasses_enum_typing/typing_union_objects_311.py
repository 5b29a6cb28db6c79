import copy
import functools

from dataclasses import dataclass, fields
from typing import Any, Dict, List, Optional, Union, get_args, get_origin, get_type_hints


UnionType = type(int | str)


def attempt(thunk):
    try:
        return repr(thunk())
    except TypeError as e:
        return ["TypeError", str(e)]


@functools.singledispatch
def describe(value):
    return "other"


@describe.register(Union[int, float])
def _(value):
    return "number"


@describe.register
def _(value: str | bytes):
    return "text"


@dataclass
class Order:
    note: Optional[str] = None
    qty: "Union[int, float]" = 0


def annotated(a: "Optional[List[int]]", b: int | None) -> "Union[str, None]":
    return None


def run():
    u = Union[int, str]
    return [
        repr(Union), repr(Optional), repr(u), repr(Union[str, int]), repr(Optional[Dict[str, Any]]),
        repr(Union[None, int]), repr(Union[int, None, str]), repr(Union[int, Union[str, bytes]]),
        repr(Union[int, str, int]), Union[int] is int, Union[int, int] is int,
        repr(List[int] | None), repr(int | List[int]), repr(Optional[int] | str),
        u == Union[str, int], u == (int | str), (int | str) == u, u != Union[int, bytes],
        u in {Union[str, int]}, Optional[int] in {Union[None, int]: 1},
        get_origin(u) is Union, get_origin(int | str) is UnionType, get_origin(int | str) is Union,
        repr(get_args(u)), repr(get_args(Optional[int])), repr(get_args(int | str)),
        isinstance(3, u), isinstance(3.5, u), isinstance(u, UnionType),
        isinstance(int | str, UnionType), issubclass(bool, u),
        type(u).__name__,
        repr(copy.copy(u)), copy.deepcopy(Optional[int]) == Optional[int],
        describe(1), describe(2.0), describe("s"), describe(b"b"), describe([]),
        {k: repr(v) for k, v in get_type_hints(Order, {"Union": Union, "Optional": Optional}).items()},
        [repr(f.type) for f in fields(Order)],
        {k: repr(v) for k, v in get_type_hints(annotated).items()},
        attempt(lambda: Union[()]), attempt(lambda: Union[3]), attempt(lambda: Optional[int, str]),
        attempt(lambda: Union()), attempt(lambda: u()), attempt(lambda: Union[int, str][int]),
        attempt(lambda: Union[List[int], Dict[str, int]]),
    ]
