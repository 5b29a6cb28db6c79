from dataclasses import dataclass, asdict, replace, fields

@dataclass
class Pos:
    x: int
    y: int

@dataclass
class Player:
    name: str
    pos: Pos

def run():
    p = Player("p1", Pos(1, 2))
    q = replace(p, name="p2")
    return [asdict(p), q.name, [f.name for f in fields(Player)]]
