from operator import itemgetter, attrgetter, methodcaller


class Acct:
    def __init__(self, name, owner_city, bal):
        self.name = name
        self.owner = type("Owner", (), {"city": owner_city})()
        self.bal = bal


def run():
    rows = [("b", 2, "x"), ("a", 2, "y"), ("c", 1, "z")]
    g1 = itemgetter(1)
    g2 = itemgetter(1, 0)
    accts = [Acct("n1", "Oslo", 5), Acct("n2", "Bern", 9), Acct("n3", "Oslo", 1)]
    up = methodcaller("upper")
    rep = methodcaller("replace", "a", "o", 1)
    sp = methodcaller("split", sep=",")
    return [
        sorted(rows, key=g1), sorted(rows, key=g2), g2(rows[0]),
        itemgetter(slice(1, 3))("hello"), itemgetter("k")({"k": 4}),
        [a.name for a in sorted(accts, key=attrgetter("owner.city", "bal"))],
        attrgetter("name", "bal")(accts[1]),
        up("abc"), rep("banana"), sp("a,b,,c"),
    ]
