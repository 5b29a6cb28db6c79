class Adder:
    def __init__(self, n):
        self.n = n
    def __call__(self, x):
        return x + self.n

def run():
    add5 = Adder(5)
    return [add5(10), list(map(add5, [1, 2])), callable(add5), callable(5)]
