def run():
    a = {1, 2, 3, 4}
    b = {3, 4, 5}
    return [sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b), {1, 2} <= a, a.isdisjoint({9}), len(a)]
