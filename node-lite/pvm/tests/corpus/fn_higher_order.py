from functools import reduce

def run():
    nums = list(range(1, 11))
    return [list(map(lambda x: x ** 2, nums)), reduce(lambda a, b: a * b, nums), reduce(lambda a, b: a + b, [], 0), sorted(nums, key=lambda x: -x)[:3]]
