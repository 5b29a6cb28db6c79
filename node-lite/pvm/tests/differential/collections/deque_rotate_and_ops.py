from collections import deque


def run():
    d = deque(range(7))
    d.rotate(2)
    a = list(d)
    d.rotate(-3)
    b = list(d)
    d.rotate(0)
    d.rotate(15)
    c = list(d)
    d.remove(3)
    idx = d.index(5)
    cnt = deque([1, 2, 1, 1]).count(1)
    d.insert(2, 99)
    d.reverse()
    p = d.pop()
    pl = d.popleft()
    return [a, b, c, idx, cnt, list(d), p, pl, d[0], d[-1], len(d)]
