import itertools

def run():
    return [list(itertools.takewhile(lambda x: x < 5, [1, 4, 6, 2])), list(itertools.dropwhile(lambda x: x < 5, [1, 4, 6, 2])), list(itertools.zip_longest("ab", "xyz", fillvalue="-")), list(itertools.starmap(pow, [(2, 3), (3, 2)]))]
