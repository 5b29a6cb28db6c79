from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3

def run():
    return [Color.RED.name, Color(2).name, Color["BLUE"].value, [c.name for c in Color], Color.RED == Color.RED, Color.RED is Color(1), len(Color)]
