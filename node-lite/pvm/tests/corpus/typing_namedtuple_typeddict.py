from typing import NamedTuple

class Emp(NamedTuple):
    name: str
    id: int = 0

def run():
    e = Emp("x")
    return [e.name, e.id, list(Emp("y", 3)), Emp._fields]
