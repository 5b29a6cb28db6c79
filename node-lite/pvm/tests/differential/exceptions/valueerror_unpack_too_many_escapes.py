def run():
    record = [1, 2, 3]
    a, b = record
    return a + b
