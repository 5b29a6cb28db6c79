def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

def run():
    return [str(fact(20)), str(fact(50)), len(str(fact(100)))]
