def run():
    items = ["bb", "a", "ccc", "dd"]
    compose = lambda f, g: lambda x: f(g(x))
    inc_then_double = compose(lambda x: x * 2, lambda x: x + 1)
    return [sorted(items, key=lambda s: (len(s), s)), inc_then_double(5), list(filter(lambda x: x % 2, range(10)))]
