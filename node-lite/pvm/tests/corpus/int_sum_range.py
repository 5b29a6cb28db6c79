def run():
    return [sum(range(1000)), sum(range(0, 100, 7)), list(range(10, 0, -3)), len(range(5, 500, 5)), range(10)[3], 7 in range(0, 10, 7)]
