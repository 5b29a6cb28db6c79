import bisect


def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]


def run():
    a = [1, 2, 2, 2, 5, 8]
    r = [bisect.bisect_left(a, 2), bisect.bisect_right(a, 2), bisect.bisect(a, 2),
         bisect.bisect_left(a, 0), bisect.bisect_right(a, 100),
         bisect.bisect_left(a, 2, 2), bisect.bisect_right(a, 2, 0, 3),
         [grade(s) for s in [33, 60, 77, 89, 90, 100]]]
    b = [10, 20, 30]
    bisect.insort(b, 25)
    bisect.insort_left(b, 20)
    bisect.insort_right(b, 5)
    r.append(b)
    try:
        bisect.bisect_left(a, 1, -1)
    except ValueError as e:
        r.append([type(e).__name__, str(e)])
    return r
