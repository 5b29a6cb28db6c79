import functools


def run():
    k = functools.cmp_to_key(lambda a, b: a - b)
    out = [type(k).__name__, k(1).obj, k(1) < k(2), k(1) == k(1), k(2) >= k(1), k(3) != k(3),
           sorted([3, 1, 2], key=k), max(["bb", "a", "ccc"], key=functools.cmp_to_key(lambda a, b: len(a) - len(b)))]
    for f in (lambda: k(1) < 5, lambda: hash(k(1)), lambda: k(), lambda: k(1, 2),
              lambda: functools.cmp_to_key(), lambda: k(1) == 5, lambda: k(1) != 5):
        try:
            out.append(f())
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    return out
