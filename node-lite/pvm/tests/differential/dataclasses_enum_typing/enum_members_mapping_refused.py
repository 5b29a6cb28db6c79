# refused: dunder-attribute
from enum import Enum


class Status(Enum):
    PENDING = "p"
    ACTIVE = "a"
    WAITING = "p"


def run():
    return [list(Status.__members__), [(k, v.name) for k, v in Status.__members__.items() if k != v.name]]
