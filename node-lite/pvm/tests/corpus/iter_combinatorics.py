import itertools

def run():
    return [list(itertools.permutations("abc", 2)), list(itertools.combinations(range(4), 2)), list(itertools.product([0, 1], repeat=2)), len(list(itertools.combinations_with_replacement("ab", 3)))]
