from dataclasses import dataclass


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0


@dataclass
class NoOrder:
    x: int


def run():
    vs = [Version(1, 2), Version(0, 9, 9), Version(1, 10), Version(1, 2, 1)]
    out = [
        [repr(v) for v in sorted(vs)],
        Version(1, 2) < Version(1, 10),
        Version(2) > Version(1, 99, 99),
        Version(1, 2) <= Version(1, 2),
        Version(1) == Version(1, 0, 0),
        repr(max(vs)),
    ]
    try:
        Version(1) < (1, 0, 0)
    except TypeError as e:
        out.append(str(e))
    try:
        NoOrder(1) < NoOrder(2)
    except TypeError as e:
        out.append(str(e))
    try:
        @dataclass(order=True, eq=False)
        class Bad:
            x: int
    except ValueError as e:
        out.append(str(e))
    return out
