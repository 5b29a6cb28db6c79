from typing import Any, Dict, List, Optional, Tuple, Union, get_args, get_origin


def run():
    return [
        repr(Optional[int]),
        repr(Union[int, None]),
        Union[int, str] == Union[str, int],
        repr(Union[int, int]),
        repr(Union[int, Union[str, bytes]]),
        repr(int | None),
        repr(List[int]),
        repr(Dict[str, Any]),
        repr(Tuple[int, ...]),
        repr(Tuple[()]),
        get_origin(List[int]) is list,
        get_origin(Optional[int]) is Union,
        repr(get_args(Dict[str, List[int]])),
        repr(get_args(Optional[str])),
        get_origin(int) is None,
        get_args(int),
    ]
