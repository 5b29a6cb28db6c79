def attempt(fn):
    try:
        fn()
        return None
    except Exception as e:
        return [type(e).__name__, str(e), repr(e.args)]


def unpack_star():
    a, b, *rest = [1]


def run():
    pending = {"tx1": 3}
    slots = [0, 0]

    def fill_slot():
        slots[2] = 7

    return [
        attempt(lambda: pending.pop("tx2")),
        attempt(lambda: ("a", "b")[-3]),
        attempt(fill_slot),
        attempt(lambda: int("0x1g", 16)),
        attempt(lambda: [3, 1, 4].index(9)),
        attempt(lambda: "transfer:alice".index("#")),
        attempt(lambda: "abc".rindex("z")),
        attempt(unpack_star),
        attempt(lambda: {}.popitem()),
        attempt(lambda: int(" 7 ")),
        attempt(lambda: float("x")),
        attempt(lambda: float("1.5.2")),
    ]
