from enum import Enum


class Status(Enum):
    PENDING = "p"
    ACTIVE = "a"
    WAITING = "p"
    DONE = "d"
    FINISHED = "d"


def run():
    return [
        [m.name for m in Status],
        len(Status),
        Status.WAITING is Status.PENDING,
        Status.WAITING.name,
        Status("d").name,
        [Status[k].name for k in ("PENDING", "WAITING", "DONE", "FINISHED")],
        Status["FINISHED"] is Status.DONE,
        Status.FINISHED.value,
        [m.value for m in reversed(Status)],
        Status.ACTIVE in Status,
        "a" in [m.value for m in Status],
    ]
