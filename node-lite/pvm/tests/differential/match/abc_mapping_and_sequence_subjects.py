from collections.abc import Mapping, Sequence


class Registry(Mapping):
    def __init__(self, data):
        self._data = dict(data)

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)


class Window(Sequence):
    def __init__(self, items):
        self._items = list(items)

    def __getitem__(self, i):
        return self._items[i]

    def __len__(self):
        return len(self._items)


class NotRegistered:
    def __getitem__(self, i):
        return [1, 2][i]

    def __len__(self):
        return 2


def kind(subject):
    match subject:
        case {"owner": owner, **rest}:
            return ["mapping", owner, sorted(rest)]
        case [first, *others]:
            return ["sequence", first, others]
        case _:
            return ["neither", type(subject).__name__]


def run():
    return [kind(Registry({"owner": "ann", "limit": 3})), kind(Registry({})),
            kind(Window("xyz")), kind(Window([])), kind(NotRegistered())]
