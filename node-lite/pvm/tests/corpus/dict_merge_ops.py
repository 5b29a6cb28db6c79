def run():
    a = {"x": 1, "y": 2}
    b = {"y": 3, "z": 4}
    c = a | b
    a |= {"w": 0}
    return [c, a, list(reversed(c)), c == {"z": 4, "y": 3, "x": 1}]
