def run():
    xs = [("b", 2), ("a", 2), ("c", 1)]
    ys = sorted(xs, key=lambda t: t[1])
    zs = list(xs)
    zs.sort(reverse=True)
    nums = [3, 1, 2]
    nums.sort(key=lambda v: -v)
    return [ys, zs, nums, sorted("hello"), sorted([3, 1, 2], reverse=True)]
