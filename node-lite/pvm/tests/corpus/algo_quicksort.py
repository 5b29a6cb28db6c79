def qsort(xs):
    if len(xs) <= 1:
        return xs
    pivot, rest = xs[0], xs[1:]
    return qsort([x for x in rest if x < pivot]) + [pivot] + qsort([x for x in rest if x >= pivot])

def run():
    data = [(i * 7919) % 101 for i in range(60)]
    return qsort(data) == sorted(data) and qsort(data)[:10]
