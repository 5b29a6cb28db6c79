def run():
    d = {frozenset({1, 2}): "a", frozenset({3}): "b"}
    return [d[frozenset({2, 1})], sorted(len(k) for k in d), frozenset() == set()]
