class Squares:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * i


class Seq:
    def __init__(self, data):
        self.data = data

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


def run():
    s = Squares(5)
    q = Seq("hello")
    return [
        list(s),
        9 in s,
        10 in s,
        list(reversed(q)),
        q[1:3],
        q[-1],
        sorted(Squares(4), reverse=True),
        [x for x in q if x != "l"],
        sum(Squares(4)),
    ]
