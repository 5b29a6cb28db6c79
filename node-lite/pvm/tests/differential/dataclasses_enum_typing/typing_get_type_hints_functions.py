from typing import Callable, Dict, List, Optional, Tuple, Union, get_type_hints


def handler(name: str, count: int = 1, tags: Optional[List[str]] = None) -> Dict[str, int]:
    return {name: count}


def combine(a: Union[int, str], cb: Callable[[int, str], bool], pair: Tuple[int, ...]) -> None:
    pass


def bare(x, y: "int"):
    return x


def run():
    return [
        {k: repr(v) for k, v in get_type_hints(handler).items()},
        {k: repr(v) for k, v in get_type_hints(combine).items()},
        {k: repr(v) for k, v in get_type_hints(bare).items()},
        get_type_hints(handler)["return"] == Dict[str, int],
        get_type_hints(handler)["tags"] == Optional[List[str]],
        get_type_hints(bare)["y"] is int,
        handler(name="a", count=3),
    ]
