def run():
    total = 0
    for x in 42:
        total += x
    return total
