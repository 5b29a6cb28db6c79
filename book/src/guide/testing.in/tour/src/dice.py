"""Rolls a die from the block's randomness (the beacon): the same beacon, the same face."""

from cowboy_sdk import actor, emit, randomness


@actor
class Dice:
    def __init__(self):
        self.storage["rolls"] = []

    def roll(self):
        face = randomness("roll")[0] % 6 + 1
        self.storage["rolls"] = self.storage["rolls"] + [face]
        emit("Rolled", face)
        return face

    def rolls(self):
        return self.storage["rolls"]
