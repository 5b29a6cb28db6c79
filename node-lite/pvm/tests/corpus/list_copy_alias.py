def run():
    a = [1, [2, 3]]
    b = a
    c = list(a)
    b.append(4)
    c[1].append(5)
    d = [[0] * 2] * 2
    d[0][0] = 1
    return [a, c, d, a is b, a is c]
