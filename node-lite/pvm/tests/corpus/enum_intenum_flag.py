from enum import IntEnum, Flag, auto

class Level(IntEnum):
    LOW = 1
    HIGH = 5

class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()

def run():
    rw = Perm.R | Perm.W
    return [Level.HIGH > Level.LOW, Level.HIGH + 1, int(Level.LOW), bool(rw & Perm.W), bool(rw & Perm.X), Perm.X.value]
