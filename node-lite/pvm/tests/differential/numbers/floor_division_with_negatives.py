def run():
    pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, -3), (1, -1), (-1, 3)]
    return [[a // b, a % b] for a, b in pairs]
