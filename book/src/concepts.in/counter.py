from cowboy_sdk import actor, emit

@actor
class Counter:
    def __init__(self, start=0):
        self.storage["count"] = start

    def increment(self, by=1):
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]
