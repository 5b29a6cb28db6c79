import bisect


def run():
    records = [("a", 1), ("b", 3), ("c", 3), ("d", 7)]
    keyf = lambda rec: rec[1]
    r = [bisect.bisect_left(records, 3, key=keyf),
         bisect.bisect_right(records, 3, key=keyf),
         bisect.bisect(records, 10, key=keyf),
         bisect.bisect_left(records, 0, key=keyf)]
    bisect.insort(records, ("x", 3), key=keyf)
    bisect.insort_left(records, ("y", 3), key=keyf)
    bisect.insort(records, ("z", 0), key=keyf)
    r.append(records)
    words = ["apple", "Banana", "cherry"]
    bisect.insort(words, "BLUE", key=str.lower)
    r.append(words)
    r.append(bisect.bisect_left([-1, 2, -3, 4], 3, key=abs))
    return r
