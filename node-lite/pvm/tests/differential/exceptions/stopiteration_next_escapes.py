def run():
    it = iter([1])
    first = next(it)
    return first + next(it)
