from dataclasses import dataclass, fields


@dataclass
class Item:
    name: str
    price: int = 0
    tags: tuple = ()


@dataclass
class Empty:
    pass


def run():
    a = Item("pen")
    b = Item("book", 12, ("paper",))
    c = Item(price=3, name="cup")
    return [
        repr(a),
        repr(b),
        str(c),
        repr(Empty()),
        repr([a, c]),
        a == Item("pen", 0, ()),
        a == ("pen", 0, ()),
        Item.price,
        [f.name for f in fields(Item)],
        [f.default for f in fields(Item)][1:],
        [f.type.__name__ for f in fields(b)],
    ]
