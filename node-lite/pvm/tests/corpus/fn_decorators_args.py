def repeat(n):
    def deco(f):
        def wrapper(*a):
            return [f(*a) for _ in range(n)]
        return wrapper
    return deco

@repeat(3)
def greet(name):
    return "hi " + name

def run():
    return greet("x")
