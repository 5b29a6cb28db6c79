import os
from cowboy_sdk import actor


@actor
class Bad:
    def go(self):
        return eval("1 + 1")
