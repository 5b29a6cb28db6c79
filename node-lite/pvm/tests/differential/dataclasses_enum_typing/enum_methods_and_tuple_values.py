from enum import Enum


class Planet(Enum):
    MERCURY = (3303, 2439)
    EARTH = (59760, 6371)

    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius

    @property
    def density_hint(self):
        return self.mass // self.radius

    def describe(self):
        return f"{self.name.title()} r={self.radius}"


class Op(Enum):
    ADD = "+"
    SUB = "-"

    def apply(self, a, b):
        return a + b if self is Op.ADD else a - b

    @classmethod
    def parse(cls, sym):
        return cls(sym)


def run():
    return [
        Planet.EARTH.value,
        Planet.EARTH.mass,
        Planet.MERCURY.density_hint,
        Planet.MERCURY.describe(),
        Planet((59760, 6371)).name,
        Op.parse("-").apply(10, 3),
        Op.ADD.apply(2, 2),
        [o.apply(5, 1) for o in Op],
    ]
