"""A counter: the smallest useful actor. State lives in self.storage and persists between
calls; every change emits an event."""

from cowboy_sdk import actor, emit


@actor
class Counter:
    def __init__(self, start=0):
        self.storage["count"] = start

    def increment(self, by=1):
        if by < 1:
            raise ValueError("increment by at least 1")
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def get(self):
        return self.storage["count"]
