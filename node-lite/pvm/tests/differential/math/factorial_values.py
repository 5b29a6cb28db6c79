import math

def run():
    return [math.factorial(0), math.factorial(1), math.factorial(5), math.factorial(20), math.factorial(30),
            len(str(math.factorial(200))), math.factorial(True), math.factorial(25) // math.factorial(23)]
