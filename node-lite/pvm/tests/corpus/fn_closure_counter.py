def make_counter():
    count = 0
    def inc(by=1):
        nonlocal count
        count += by
        return count
    return inc

def run():
    c1, c2 = make_counter(), make_counter()
    return [c1(), c1(), c1(10), c2()]
