from enum import IntEnum


class Priority(IntEnum):
    LOW = 1
    MEDIUM = 5
    HIGH = 10


def run():
    p = Priority.MEDIUM
    return [
        p == 5,
        p < Priority.HIGH,
        p > 3,
        p + 1,
        type(p + 1).__name__,
        p * 2,
        int(Priority.HIGH),
        [m.name for m in sorted([Priority.HIGH, Priority.LOW, Priority.MEDIUM])],
        max(Priority).name,
        ["a", "b", "c", "d", "e", "f"][Priority.LOW],
        Priority(10).name,
        isinstance(p, int),
        {1: "one"}[Priority.LOW],
        sum(Priority),
        Priority.LOW.real,
    ]
