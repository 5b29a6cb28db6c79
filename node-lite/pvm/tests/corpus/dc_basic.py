from dataclasses import dataclass, field

@dataclass
class Item:
    name: str
    price: int
    tags: list = field(default_factory=list)

def run():
    a = Item("apple", 3)
    b = Item("apple", 3)
    a.tags.append("fruit")
    return [repr(Item("x", 1)), a == b, a.tags, b.tags]
