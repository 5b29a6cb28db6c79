import dataclasses
import typing
from dataclasses import InitVar, dataclass, field, fields
from typing import ClassVar, List, Optional, get_type_hints


@dataclass
class Node:
    name: "str"
    children: "List[Node]" = field(default_factory=list)
    parent: "Optional[Node]" = None
    registry: "ClassVar[int]" = 0
    limit: "typing.ClassVar[int]" = 10
    seed: "InitVar[int]" = 1
    scale: "dataclasses.InitVar[float]" = 2.0

    def __post_init__(self, seed, scale):
        self.weight = seed * scale

    def add(self, child: "Node") -> "Node":
        child.parent = self
        self.children.append(child)
        return child


@dataclass(frozen=True, order=True)
class Version:
    major: "int"
    minor: "int" = 0

    def bump(self) -> "Version":
        return Version(self.major, self.minor + 1)


def run():
    root = Node("root", seed=3)
    leaf = root.add(Node("leaf", scale=0.5))
    hints = get_type_hints(Node)
    return [
        [f.name for f in fields(Node)],
        [repr(f.type) for f in fields(Node)],
        repr(root.weight), repr(leaf.weight), leaf.parent.name, [c.name for c in root.children],
        Node.registry, Node.limit,
        sorted(hints), repr(hints["children"]), repr(hints["parent"]), repr(hints["registry"]),
        repr(get_type_hints(Node.add)),
        sorted([Version(1, 2), Version(1, 0), Version(0, 9)]) == [Version(0, 9), Version(1, 0), Version(1, 2)],
        repr(Version(2).bump()), repr(get_type_hints(Version)),
        repr(Node("x", seed=2, scale=1.5)),
    ]
