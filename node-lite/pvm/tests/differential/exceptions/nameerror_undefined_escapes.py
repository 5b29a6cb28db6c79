def run():
    total = 1
    return total + totl
