from enum import Enum, IntEnum, auto


class State(Enum):
    PENDING = auto()
    ACTIVE = auto()
    CLOSED = auto()


class Level(IntEnum):
    LOW = 1
    HIGH = 2


def next_state(state):
    match state:
        case State.PENDING:
            return State.ACTIVE.name
        case State.ACTIVE:
            return State.CLOSED.name
        case State.CLOSED:
            return "terminal"
        case _:
            return "not a state"


def level(value):
    match value:
        case Level.LOW:
            return "low"
        case Level.HIGH:
            return "high"
        case _:
            return "none"


def run():
    return [next_state(State.PENDING), next_state(State.ACTIVE), next_state(State.CLOSED),
            next_state(1), next_state("PENDING"), level(1), level(Level.HIGH), level(3),
            level(True)]
