def run():
    words = "the cat and the hat and the bat".split()
    return [sorted({w for w in words}), sorted({len(w) for w in words}), len({(w[0], len(w)) for w in words})]
