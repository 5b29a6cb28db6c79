import itertools

def run():
    return [list(itertools.chain([1, 2], "ab")), list(itertools.islice(itertools.count(10, 5), 4)), list(itertools.islice(itertools.cycle("xy"), 5)), list(itertools.repeat(7, 3))]
