# refused: dunder-attribute
import json


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def run():
    return json.dumps(Point(3, 4), default=lambda o: o.__dict__, sort_keys=True)
