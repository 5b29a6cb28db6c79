def run():
    words = ["eat", "tea", "tan", "ate", "nat", "bat"]
    groups = {}
    for w in words:
        groups.setdefault("".join(sorted(w)), []).append(w)
    return sorted(sorted(g) for g in groups.values())
