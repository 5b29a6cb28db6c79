def run():
    recs = [(3, "c"), (1, "z"), (3, "a"), (2, "b")]
    return [sorted(recs), sorted(recs, key=lambda r: (r[1], r[0])), max(recs), min(recs, key=lambda r: r[1])]
