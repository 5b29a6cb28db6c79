def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b

def run():
    out = []
    for i, f in enumerate(fib()):
        if i >= 20:
            break
        out.append(f)
    return out
