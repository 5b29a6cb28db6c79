from itertools import islice


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        attempt(lambda: list(islice(range(5), -1))),
        attempt(lambda: list(islice(range(5), 1, 3, 0))),
        attempt(lambda: list(islice(range(5), "a"))),
        attempt(lambda: list(islice(range(5), None))),
        attempt(lambda: list(islice(range(5), 1, None, 2))),
    ]
