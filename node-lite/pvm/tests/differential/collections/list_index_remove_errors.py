def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    lst = [10, 20, 30, 20]
    return [
        lst.index(20), lst.index(20, 2), lst.index(30, -2),
        attempt(lambda: lst.index(99)),
        attempt(lambda: lst.index(10, 1)),
        attempt(lambda: [1].remove(2)),
        attempt(lambda: [].pop()),
        attempt(lambda: [1, 2].pop(5)),
        attempt(lambda: lst[10]),
        attempt(lambda: lst["a"]),
        attempt(lambda: (1, 2).index(3)),
        attempt(lambda: "abc".index("z")),
        lst.count(20), [1, 2, 3].pop(-2),
    ]
