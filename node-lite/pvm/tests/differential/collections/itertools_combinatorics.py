from itertools import product, permutations, combinations, combinations_with_replacement


def run():
    return [
        list(product("ab", [1, 2])),
        list(product([0, 1], repeat=2)),
        len(list(product(range(3), repeat=3))),
        list(product()),
        list(product([], [1])),
        list(permutations("abc", 2)),
        len(list(permutations(range(4)))),
        list(permutations([1, 2], 3)),
        list(combinations(range(4), 2)),
        list(combinations("ab", 0)),
        list(combinations("ab", 3)),
        list(combinations_with_replacement("abc", 2)),
        ["".join(p) for p in permutations("aab")],
    ]
