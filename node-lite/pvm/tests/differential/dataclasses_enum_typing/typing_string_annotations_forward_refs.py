from typing import List, Optional, get_type_hints


class Node:
    value: int
    next: "Optional[Node]"
    children: "List[Node]"

    def __init__(self, value: int, next: "Optional[Node]" = None) -> None:
        self.value = value
        self.next = next

    def append(self, other: "Node") -> "Node":
        self.next = other
        return other


def total(head: "Node", limit: "int" = 10) -> "int":
    n = 0
    while head is not None and limit:
        n += head.value
        head = head.next
        limit -= 1
    return n


def run():
    init_hints = get_type_hints(Node.__init__)
    class_hints = get_type_hints(Node, {"Node": Node, "Optional": Optional, "List": List})
    n = Node(1)
    n.append(Node(2)).append(Node(3))
    return [
        list(class_hints),
        class_hints["next"] == Optional[Node],
        {k: v.__name__ for k, v in get_type_hints(Node.append).items()},
        list(init_hints),
        init_hints["next"] == Optional[Node],
        init_hints["return"] is type(None),
        get_type_hints(Node.append) == {"other": Node, "return": Node},
        {k: repr(v) for k, v in get_type_hints(total).items() if k != "head"},
        class_hints["children"] == List[Node],
        class_hints["value"] is int,
        total(n),
        hasattr(Node, "value"),
    ]
