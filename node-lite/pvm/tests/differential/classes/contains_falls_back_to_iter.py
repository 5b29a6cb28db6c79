class Evens:
    def __init__(self, limit):
        self.limit = limit
        self.visited = 0

    def __iter__(self):
        for i in range(0, self.limit, 2):
            self.visited += 1
            yield i


class Nothing:
    pass


class Rev:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)

    def __reversed__(self):
        return iter(["custom"] + self.items[::-1])


def run():
    e = Evens(20)
    out = [4 in e, e.visited, 5 in e, e.visited]
    try:
        1 in Nothing()
    except TypeError as ex:
        out.append(str(ex))
    try:
        iter(Nothing())
    except TypeError as ex:
        out.append(str(ex))
    r = Rev([1, 2, 3])
    out.append(list(reversed(r)))
    out.append(list(r))
    return out
