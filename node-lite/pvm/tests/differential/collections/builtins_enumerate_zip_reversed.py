def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        list(enumerate("abc")), list(enumerate("abc", start=1)), list(enumerate([], 5)),
        list(enumerate("xy", -2)),
        list(zip([1, 2, 3], "ab")), list(zip()), list(zip([1], [2], [3])),
        list(zip([1, 2], "ab", strict=True)),
        attempt(lambda: list(zip([1, 2, 3], "ab", strict=True))),
        attempt(lambda: list(zip([1], "ab", strict=True))),
        attempt(lambda: list(zip([1, 2], [1, 2], [3], strict=True))),
        list(reversed([1, 2, 3])), list(reversed("abc")), list(reversed(range(0, 10, 3))),
        list(reversed({"a": 1, "b": 2})), list(reversed((1, 2))),
        attempt(lambda: reversed({1, 2})),
        attempt(lambda: list(reversed(iter([1])))),
        list(zip(*[(1, "a"), (2, "b"), (3, "c")])),
    ]
