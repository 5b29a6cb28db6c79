def f(a, b=2, *args, c=3, **kw):
    return [a, b, list(args), c, sorted(kw.items())]

def run():
    return [f(1), f(1, 5, 6, 7, c=0, z=9), f(*[1, 2, 3], **{"c": 4, "d": 5})]
