from functools import cmp_to_key, total_ordering


def by_len_then_reverse(a, b):
    if len(a) != len(b):
        return len(a) - len(b)
    return (a < b) - (a > b)


@total_ordering
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts


def run():
    words = ["bb", "a", "ccc", "aa", "c", "ab"]
    s = sorted(words, key=cmp_to_key(by_len_then_reverse))
    nums = sorted([5, 1, 4], key=cmp_to_key(lambda a, b: b - a))
    v1, v2, v3 = Version("1.2.10"), Version("1.10"), Version("1.2.10")
    vs = sorted([Version("2.0"), Version("1.9.9"), Version("1.10")])
    return [s, nums, v1 < v2, v1 <= v3, v1 > v2, v2 >= v1, v1 == v3, v1 != v2,
            [".".join(map(str, v.parts)) for v in vs],
            max(words, key=cmp_to_key(by_len_then_reverse))]
