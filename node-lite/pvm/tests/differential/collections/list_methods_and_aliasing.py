def run():
    a = [1, 2, 3]
    b = a
    b += [4]
    c = a
    c = c + [5]
    d = [0] * 3
    grid = [[0] * 2 for _ in range(2)]
    grid[0][0] = 1
    bad = [[0] * 2] * 2
    bad[0][0] = 1
    e = [5, 3, 1]
    e.extend(range(2))
    e.insert(100, "end")
    e.insert(-100, "start")
    e.insert(-1, "mid")
    f = [1, 2, 3, 4]
    f.reverse()
    g = f.copy()
    g.clear()
    return [a, c, d, grid, bad, e, f, g, [1, 2] * 0, [1, 2] == [1, 2], [1, 2] < [1, 3],
            [3] > [2, 9], list("abc") + ["d"], [x for x in [1, [2]] if x]]
