from enum import Enum, auto

class State(Enum):
    IDLE = auto()
    RUNNING = auto()
    DONE = auto()

    def next(self):
        members = list(State)
        return members[(members.index(self) + 1) % len(members)]

def run():
    return [State.IDLE.value, State.DONE.value, State.IDLE.next().name, State.DONE.next().name]
