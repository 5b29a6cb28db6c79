# refused: dunder-attribute
from typing import Optional


class Node:
    value: int
    next: "Optional[Node]"

    def append(self, other: "Node") -> "Node":
        self.next = other
        return other


def total(head: "Node", limit: "int" = 10) -> "int":
    return 0


def run():
    return [{k: repr(v) for k, v in Node.__annotations__.items()}, Node.append.__annotations__, total.__annotations__]
