class Ledger:
    def __init__(self, entries):
        self._entries = list(entries)

    def __len__(self):
        return len(self._entries)

    def __getitem__(self, i):
        return self._entries[i]


class Backwards:
    def __init__(self, items):
        self.items = items

    def __reversed__(self):
        return iter(["custom"] + self.items[::-1])

    def __iter__(self):
        return iter(self.items)


def run():
    led = Ledger(["mint", "transfer", "burn"])
    return [
        [list(p) for p in enumerate(led)],
        [list(p) for p in enumerate(led, start=10)],
        list(reversed(led)),
        list(reversed(Backwards([1, 2, 3]))),
        list(reversed(range(1, 10, 3))),
        list(reversed({"a": 1, "b": 2})),
        "transfer" in led,
        list(iter(led)),
    ]
