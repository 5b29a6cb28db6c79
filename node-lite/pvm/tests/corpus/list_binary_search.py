def bsearch(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1

def run():
    xs = list(range(0, 200, 3))
    return [bsearch(xs, 99), bsearch(xs, 100), bsearch(xs, 0), bsearch(xs, 198)]
