class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1

def run():
    return [list(Countdown(5)), sum(Countdown(10)), [x for x in Countdown(3) if x != 2]]
