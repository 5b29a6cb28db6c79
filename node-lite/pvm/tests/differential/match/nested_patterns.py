from dataclasses import dataclass


@dataclass
class Leaf:
    value: int


@dataclass
class Node:
    left: object
    right: object


def total(tree):
    match tree:
        case Leaf(v):
            return v
        case Node(Leaf(0), right) | Node(right, Leaf(0)):
            return total(right)
        case Node(left, right):
            return total(left) + total(right)


def describe(data):
    match data:
        case {"user": {"name": str(name), "roles": [*_] as roles}} if "admin" in roles:
            return f"admin {name} ({len(roles)} roles)"
        case {"user": {"name": str(name)}, "items": [{"qty": q}, *more]}:
            return f"{name} first qty {q}, {len(more)} more"
        case [(x1, y1), (x2, y2)] if (x1, y1) == (x2, y2):
            return "same point"
        case [(x1, y1), (x2, y2)]:
            return f"segment dx={x2 - x1} dy={y2 - y1}"
        case _:
            return "unknown"


def run():
    tree = Node(Node(Leaf(1), Leaf(0)), Node(Leaf(0), Node(Leaf(5), Leaf(6))))
    return [total(tree), total(Leaf(3)),
            describe({"user": {"name": "ann", "roles": ["dev", "admin", "ops"]}}),
            describe({"user": {"name": "bob", "roles": ["dev"]},
                      "items": [{"qty": 2}, {"qty": 3}, {"qty": 1}]}),
            describe([(1, 2), (1, 2)]), describe([[0, 0], [3, 4]]), describe([(1, 2)])]
