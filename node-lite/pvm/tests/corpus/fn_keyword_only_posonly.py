def f(a, b, /, c, *, d):
    return a + b + c + d

def run():
    out = [f(1, 2, 3, d=4), f(1, 2, c=3, d=4)]
    try:
        f(1, b=2, c=3, d=4)
    except TypeError:
        out.append("TypeError")
    return out
