class Counter:
    created = 0

    def __init__(self):
        Counter.created += 1

    @classmethod
    def make(cls, n):
        return [cls() for _ in range(n)]

    @staticmethod
    def double(x):
        return 2 * x

def run():
    Counter.make(3)
    Counter()
    return [Counter.created, Counter.double(21), Counter().double(1)]
