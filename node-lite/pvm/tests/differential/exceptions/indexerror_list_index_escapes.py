def run():
    queue = [10, 20, 30]
    first = queue[0] + queue[-1]
    return first + queue[3]
