def run():
    xs = list(range(7))
    xs.reverse()
    k = 3
    rot = xs[k:] + xs[:k]
    return [xs, rot, list(reversed(rot)), rot[-1:] + rot[:-1]]
