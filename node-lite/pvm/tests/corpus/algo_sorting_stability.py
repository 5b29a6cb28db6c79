def run():
    recs = [("x", 2), ("y", 1), ("z", 2), ("w", 1), ("v", 3)]
    by_num = sorted(recs, key=lambda r: r[1])
    return [r[0] for r in by_num]
