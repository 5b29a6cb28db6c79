def run():
    best = None
    for x in [3, 1]:
        if x < best:
            best = x
    return best
