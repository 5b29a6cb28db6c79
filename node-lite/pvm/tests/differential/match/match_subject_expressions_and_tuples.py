def fizz(n):
    match (n % 3, n % 5):
        case (0, 0):
            return "FizzBuzz"
        case (0, _):
            return "Fizz"
        case (_, 0):
            return "Buzz"
        case _:
            return str(n)


def compare(a, b):
    match a, b:
        case int(), int():
            return a - b
        case str(), str():
            return (a > b) - (a < b)
        case _, None:
            return "b missing"
        case _:
            return "incomparable"


def run():
    return [[fizz(n) for n in range(1, 16)], compare(5, 3), compare("a", "b"),
            compare("z", None), compare(1, "x")]
