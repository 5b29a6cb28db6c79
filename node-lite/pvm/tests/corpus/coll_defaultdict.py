from collections import defaultdict

def run():
    d = defaultdict(list)
    for k, v in [("a", 1), ("b", 2), ("a", 3)]:
        d[k].append(v)
    counts = defaultdict(int)
    for ch in "hello":
        counts[ch] += 1
    return [dict(d), dict(counts), "zz" in d]
