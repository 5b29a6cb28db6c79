def run():
    calls = []
    def f(x):
        calls.append(x)
        return x * 2
    g = (f(x) for x in range(10))
    first_two = [next(g), next(g)]
    return [first_two, calls]
