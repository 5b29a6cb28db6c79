def run():
    names = ["c", "a", "b"]
    ages = [30, 20, 25]
    return [[n for n, _ in sorted(zip(names, ages), key=lambda p: p[1])], dict(sorted(zip(names, ages)))]
