import itertools

def run():
    data = "aaabbcaa"
    groups = [(k, len(list(g))) for k, g in itertools.groupby(data)]
    return [groups, list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([1, 2, 3, 4], lambda a, b: a * b))]
