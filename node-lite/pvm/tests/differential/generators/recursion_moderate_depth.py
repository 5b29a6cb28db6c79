def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


def depth(tree):
    if not isinstance(tree, list) or not tree:
        return 0
    return 1 + max(depth(child) for child in tree)


def permutations(items):
    if len(items) <= 1:
        return [items]
    out = []
    for i, x in enumerate(items):
        for rest in permutations(items[:i] + items[i + 1:]):
            out.append([x] + rest)
    return out


def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def run():
    return [factorial(50), depth([1, [2, [3, [4]]], [5]]), permutations([1, 2, 3]),
            ackermann(2, 3), len(permutations(list("abcd")))]
