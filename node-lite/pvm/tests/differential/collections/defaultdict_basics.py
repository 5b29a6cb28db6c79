from collections import defaultdict


def run():
    groups = defaultdict(list)
    for word in ["apple", "avocado", "banana", "blueberry", "cherry", "apricot"]:
        groups[word[0]].append(word)
    counts = defaultdict(int)
    for ch in "mississippi":
        counts[ch] += 1
    nested = defaultdict(lambda: defaultdict(int))
    nested["a"]["x"] += 2
    nested["b"]["y"] += 1
    plain = defaultdict()
    try:
        plain["missing"]
        err = None
    except KeyError as e:
        err = [type(e).__name__, str(e)]
    got = groups.get("z")
    return [dict(groups), dict(counts), {k: dict(v) for k, v in nested.items()},
            err, got, "z" in groups, groups.default_factory is list]
