from collections import deque

def run():
    d = deque([1, 2, 3], maxlen=4)
    d.append(4)
    d.append(5)
    d.appendleft(0)
    d.rotate(1)
    return [list(d), d.popleft(), d.pop(), list(d), len(d)]
