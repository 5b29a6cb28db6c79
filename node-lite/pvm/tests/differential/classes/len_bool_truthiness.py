class Bag:
    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)


class Flag:
    def __init__(self, on):
        self.on = on

    def __bool__(self):
        return self.on

    def __len__(self):
        return 99


class Empty:
    pass


class BadBool:
    def __bool__(self):
        return 1


class BadLen:
    def __len__(self):
        return -1


def run():
    out = [bool(Bag([])), bool(Bag([0])), len(Bag("abc")), bool(Flag(False)), bool(Flag(True)), bool(Empty())]
    out.append("yes" if Bag([1]) else "no")
    out.append(not Bag([]))
    for obj in (BadBool(), BadLen()):
        try:
            bool(obj)
        except (TypeError, ValueError) as e:
            out.append([type(e).__name__, str(e)])
    return out
