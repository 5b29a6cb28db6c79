from enum import Enum, IntEnum


def run():
    Animal = Enum("Animal", "ANT BEE CAT")
    Size = Enum("Size", [("S", 10), ("M", 20)])
    Code = IntEnum("Code", {"OK": 200, "NOT_FOUND": 404})
    return [
        [(a.name, a.value) for a in Animal],
        Animal.BEE.value,
        Size(20).name,
        [int(c) for c in Code],
        Code.NOT_FOUND == 404,
        Animal.__name__,
        repr(Animal.CAT),
        str(Code.OK),
    ]
