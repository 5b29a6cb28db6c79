total = 0

def add(n):
    global total
    total += n
    return total

def outer():
    x = 1
    def inner():
        nonlocal x
        x += 1
        return x
    return [inner(), inner(), x]

def run():
    add(5)
    add(7)
    return [total, outer()]
