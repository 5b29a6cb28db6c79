class Bag:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)


class Never:
    def __eq__(self, other):
        return False


class Indexed:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * 10


def attempt(fn):
    try:
        return fn()
    except TypeError as e:
        return str(e)


def run():
    nan = float("nan")
    never = Never()
    return [
        nan in Bag([nan]),
        float("nan") in Bag([nan]),
        never in Bag([never]),
        Never() in Bag([never]),
        20 in Indexed(),
        25 in Indexed(),
        attempt(lambda: 1 in 5),
        attempt(lambda: "a" in None),
        attempt(lambda: 1 in 2.5),
        attempt(lambda: 3 not in object()),
    ]
