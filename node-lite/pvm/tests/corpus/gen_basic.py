def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1

def run():
    return [list(count_up(5)), sum(count_up(101)), list(zip(count_up(3), "abc"))]
