def run():
    pairs = [(1, "a"), (2, "b"), (3, "c")]
    nums, chars = zip(*pairs)
    return [list(nums), list(chars), list(zip(*zip(*pairs))) == pairs]
