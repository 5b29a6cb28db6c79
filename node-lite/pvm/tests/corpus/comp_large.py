def run():
    squares = [i * i for i in range(2000)]
    evens = [s for s in squares if s % 2 == 0]
    return [len(squares), len(evens), sum(evens) % 1000003, squares[-1]]
