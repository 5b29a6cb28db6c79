from enum import Enum, IntEnum, Flag


class Color(Enum):
    RED = 1
    GREEN = "g"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Perm(Flag):
    R = 4
    W = 2
    X = 1


def run():
    return [
        str(Color.RED),
        repr(Color.RED),
        repr(Color.GREEN),
        f"{Color.RED}",
        format(Color.GREEN),
        str(Level.HIGH),
        repr(Level.HIGH),
        f"{Level.LOW}",
        f"{Level.HIGH:>4}",
        "%s" % Level.LOW,
        str(Perm.R | Perm.W),
        repr(Perm.R | Perm.X),
        repr(Perm(0)),
        repr(Color),
        str([Color.RED, Level.LOW]),
    ]
