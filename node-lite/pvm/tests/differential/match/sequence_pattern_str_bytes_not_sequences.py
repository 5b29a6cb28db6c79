from collections import deque


def kind(value):
    match value:
        case [a, b]:
            return ["pair", a, b]
        case [*items]:
            return ["sequence", len(items)]
        case str() as s:
            return ["string", s]
        case bytes() | bytearray():
            return ["binary", len(value)]
        case dict():
            return ["mapping", len(value)]
        case _:
            return ["other", type(value).__name__]


def run():
    return [kind("ab"), kind("abc"), kind(b"ab"), kind(bytearray(b"xyz")), kind(["a", "b"]),
            kind(("a",)), kind(deque([1, 2])), kind({"a": 1, "b": 2}), kind({1, 2}),
            kind(iter([1, 2])), kind(range(5))]
