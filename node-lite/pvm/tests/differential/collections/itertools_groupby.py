from itertools import groupby


def run():
    data = "aaabccdaa"
    runs = [(k, len(list(g))) for k, g in groupby(data)]
    words = ["apple", "ant", "bee", "bat", "cat", "axe"]
    by_first = [(k, list(g)) for k, g in groupby(words, key=lambda w: w[0])]
    by_first_sorted = [(k, list(g)) for k, g in groupby(sorted(words), key=lambda w: w[0])]
    nums = [1, 3, 5, 2, 4, 7, 9, 6]
    parity = [(k, list(g)) for k, g in groupby(nums, key=lambda n: n % 2)]
    gb = groupby([1, 1, 2, 2, 3])
    keys_only = [k for k, _ in gb]
    it = groupby("xxyy")
    k1, g1 = next(it)
    k2, g2 = next(it)
    stale = list(g1)
    return [runs, by_first, by_first_sorted, parity, keys_only, stale, k2, list(g2), list(groupby([]))]
