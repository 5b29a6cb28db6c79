def run():
    return [max([], default=None), min([3, -7, 5], key=abs), max("apple", "fig", "banana", key=len), min((2, "b"), (2, "a"))]
