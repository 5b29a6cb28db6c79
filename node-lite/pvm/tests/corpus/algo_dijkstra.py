def run():
    g = {"a": {"b": 7, "c": 9, "f": 14}, "b": {"a": 7, "c": 10, "d": 15}, "c": {"a": 9, "b": 10, "d": 11, "f": 2}, "d": {"b": 15, "c": 11, "e": 6}, "e": {"d": 6, "f": 9}, "f": {"a": 14, "c": 2, "e": 9}}
    dist = {"a": 0}
    pq = [(0, "a")]
    while pq:
        pq.sort()
        d, n = pq.pop(0)
        if d > dist.get(n, 10 ** 9):
            continue
        for m, w in g[n].items():
            if d + w < dist.get(m, 10 ** 9):
                dist[m] = d + w
                pq.append((d + w, m))
    return sorted(dist.items())
