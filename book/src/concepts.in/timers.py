from cowboy_sdk import actor, set_interval, block_height


@actor
class Ticker:
    def __init__(self):
        self.storage["timer"] = set_interval(5, "tick")

    def tick(self):
        return block_height()
