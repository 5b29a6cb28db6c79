class Bad:
    def __init__(self):
        return 5


class NeedsArgs:
    def __init__(self, a, b=2, *, c):
        self.total = a + b + c


def run():
    out = []
    try:
        Bad()
    except TypeError as e:
        out.append(str(e))
    out.append(NeedsArgs(1, c=3).total)
    for args, kwargs in (((), {"c": 1}), ((1,), {}), ((1, 2, 3), {"c": 1}), ((1,), {"c": 1, "d": 2})):
        try:
            NeedsArgs(*args, **kwargs)
        except TypeError as e:
            out.append(str(e))
    try:
        NeedsArgs(1, 2, c=None)
    except TypeError as e:
        out.append(str(e))
    return out
