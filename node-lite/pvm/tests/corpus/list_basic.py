def run():
    xs = [5, 3, 8]
    xs.append(1)
    xs.extend([9, 2])
    xs.insert(1, 7)
    xs.remove(8)
    last = xs.pop()
    first = xs.pop(0)
    return [xs, last, first, xs.index(9), xs.count(3), len(xs)]
