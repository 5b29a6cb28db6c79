"""Counter: a shared count plus a count per caller; the deployer may reset it. Every change
emits an `Incremented` event with the new total."""

from cowboy_sdk import actor, emit, caller


@actor
class Counter:
    def __init__(self, start=0):
        self.storage["owner"] = caller()
        self.storage["count"] = start

    def increment(self, by=1):
        if not isinstance(by, int) or by < 1:
            raise ValueError("increment by a whole number of at least 1")
        self.storage["count"] += by
        key = ("by", caller())
        self.storage[key] = self.storage.get(key, 0) + by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def get(self):
        return self.storage["count"]

    def count_of(self, address):
        return self.storage.get(("by", address), 0)

    def reset(self):
        if caller() != self.storage["owner"]:
            raise PermissionError("only the deployer can reset the counter")
        self.storage["count"] = 0
        emit("Reset")
        return 0
