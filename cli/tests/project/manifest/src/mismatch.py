from cowboy_sdk import actor


@actor
class Mismatch:
    def go(self):
        return 1

    def extra(self):
        return 2
