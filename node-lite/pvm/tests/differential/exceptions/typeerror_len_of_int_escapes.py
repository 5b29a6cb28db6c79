def run():
    return len(5)
