# refused: dunder-attribute
from typing import Dict, List, Optional


def handler(name: str, count: int = 1, tags: Optional[List[str]] = None) -> Dict[str, int]:
    return {name: count}


def run():
    return [{k: repr(v) for k, v in handler.__annotations__.items()}, handler.__annotations__["return"] == Dict[str, int]]
