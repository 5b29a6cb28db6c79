def run():
    return [["even" if x % 2 == 0 else "odd" for x in range(5)], [x if x > 0 else 0 for x in [-2, 3, -1, 5]], [y for x in [1, 2, 3] if (y := x * 10) > 15]]
