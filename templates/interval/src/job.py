"""A scheduled job: a chain-native interval timer calls `tick` every `every` blocks, no keeper
needed. Each firing is paid from the actor's own balance, so deploy it with some value
(`cowboy deploy --value 100000000000`)."""

from cowboy_sdk import (actor, emit, balance, block_height, caller, self_address, set_interval,
                        cancel_timer)


@actor
class Job:
    def __init__(self, every=5):
        if every < 1:
            raise ValueError("every must be at least 1 block")
        if balance() == 0:
            # Without funds every firing would self-destruct, silently: refuse instead.
            raise ValueError("deploy the job with value: each firing is paid from its own "
                             "balance (cowboy deploy --value 1cby)")
        self.storage["owner"] = caller()
        self.storage["ticks"] = 0
        self.storage["last"] = None
        self.storage["timer"] = set_interval(every, "tick")

    def tick(self):
        # A timer fires as a message from the actor to itself: nobody else may tick.
        if caller() != self_address():
            raise PermissionError("tick runs only from the job's timer")
        self.storage["ticks"] += 1
        self.storage["last"] = block_height()
        emit("Tick", self.storage["ticks"])
        return self.storage["ticks"]

    def status(self):
        return {
            "ticks": self.storage["ticks"],
            "last": self.storage["last"],
            "running": self.storage["timer"] is not None,
        }

    def stop(self):
        if caller() != self.storage["owner"]:
            raise PermissionError("only the owner can stop the job")
        timer = self.storage["timer"]
        if timer is not None:
            cancel_timer(timer)
            self.storage["timer"] = None
        return True
