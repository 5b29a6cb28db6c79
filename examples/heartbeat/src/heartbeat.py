"""Heartbeat: a cron-like job on a chain-native interval timer. Every `every` blocks the
timer calls `beat`, which records the height and counts beats that came late (the chain may
defer a firing when blocks are full). The owner can pause and resume it. Firings are paid from
the actor's balance: deploy it with value."""

from cowboy_sdk import (actor, emit, block_height, caller, self_address, set_interval,
                        cancel_timer)


@actor
class Heartbeat:
    def __init__(self, every=2):
        if every < 1:
            raise ValueError("every must be at least 1 block")
        self.storage["owner"] = caller()
        self.storage["every"] = every
        self.storage["beats"] = 0
        self.storage["late"] = 0
        self.storage["last"] = None
        self._schedule()

    def _schedule(self):
        every = self.storage["every"]
        start = block_height() + every
        self.storage["next"] = start
        self.storage["timer"] = set_interval(every, "beat", start=start)

    def beat(self):
        if caller() != self_address():
            raise PermissionError("beat runs only from the heartbeat's timer")
        height = block_height()
        if height > self.storage["next"]:
            self.storage["late"] += 1
        self.storage["beats"] += 1
        self.storage["last"] = height
        self.storage["next"] = height + self.storage["every"]
        emit("Beat", [self.storage["beats"], height])
        return self.storage["beats"]

    def status(self):
        return {
            "beats": self.storage["beats"],
            "late": self.storage["late"],
            "last": self.storage["last"],
            "every": self.storage["every"],
            "running": self.storage["timer"] is not None,
        }

    def pause(self):
        self._only_owner()
        if self.storage["timer"] is None:
            return False
        cancel_timer(self.storage["timer"])
        self.storage["timer"] = None
        emit("Paused")
        return True

    def resume(self):
        self._only_owner()
        if self.storage["timer"] is not None:
            return False
        self._schedule()
        emit("Resumed")
        return True

    def _only_owner(self):
        if caller() != self.storage["owner"]:
            raise PermissionError("only the owner can pause or resume the heartbeat")
