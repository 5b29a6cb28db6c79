def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    words = ["pear", "fig", "banana", "kiwi", "plum"]
    return [
        min(words, key=len), max(words, key=len), max(words, key=len, default=None),
        min([], default="empty"), max([3, 7, 7, 1]), min(4, 2, 8),
        max("abc", "abd", "ab"), min([(2, "b"), (1, "z"), (1, "a")]),
        max(words, key=lambda w: w[-1]),
        attempt(lambda: min([])), attempt(lambda: max()),
        attempt(lambda: max(1, 2, default=0)),
        sum([1, 2, 3], 10), sum([[1], [2, 3]], []), sum(((1,), (2,)), ()),
        sum([True, True, False]), sum([], 5), sum(range(101)),
        attempt(lambda: sum(["a", "b"], "")),
        attempt(lambda: sum([1, "a"])),
    ]
