from collections import deque


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    empty = deque()
    full = deque([1, 2], maxlen=2)
    return [
        attempt(empty.pop),
        attempt(empty.popleft),
        attempt(lambda: deque([1, 2]).remove(5)),
        attempt(lambda: deque([1, 2]).index(5)),
        attempt(lambda: full.insert(0, 9)),
        attempt(lambda: deque([1])[5]),
        attempt(lambda: deque(maxlen=-1)),
    ]
