from enum import Enum

class E(Enum):
    A = 1
    B = 1
    C = 2

def run():
    try:
        E(3)
        err = None
    except ValueError:
        err = "ValueError"
    return [E.B is E.A, E.B.name, [m.name for m in E], err]
