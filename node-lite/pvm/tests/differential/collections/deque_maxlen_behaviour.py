from collections import deque


def run():
    d = deque(maxlen=3)
    for i in range(6):
        d.append(i)
    a = list(d)
    d.appendleft(-1)
    b = list(d)
    d.extend([10, 11])
    c = list(d)
    d.extendleft([20, 21])
    e = list(d)
    z = deque([1, 2, 3], maxlen=0)
    return [a, b, c, e, d.maxlen, list(z), deque([1]).maxlen, repr(d)]
