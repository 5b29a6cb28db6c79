def append_bad(item, bucket=[]):
    bucket.append(item)
    return bucket


def append_good(item, bucket=None):
    if bucket is None:
        bucket = []
    bucket.append(item)
    return bucket


def tally(key, counts={}):
    counts[key] = counts.get(key, 0) + 1
    return dict(counts)


def run():
    a = append_bad(1)
    b = append_bad(2)
    c = append_bad(3, [])
    return [a, b, a is b, c, append_good(1), append_good(2), tally("x"), tally("y"),
            tally("x"), append_bad(4), a, append_good(3, [0])]
