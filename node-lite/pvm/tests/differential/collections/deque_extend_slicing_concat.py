from collections import deque


def run():
    d = deque("abc")
    d2 = d + deque("xy")
    d3 = d * 2
    d.extendleft("12")
    d[1] = "Z"
    del d[0]
    lst = list(d)
    try:
        d[0:2]
        sl = None
    except TypeError as e:
        sl = type(e).__name__
    cp = d.copy()
    cp.clear()
    return [list(d2), list(d3), lst, sl, len(cp), len(d), "a" in d, d == deque(lst), d < deque("zz")]
