class Proxy:
    def __init__(self, target):
        self.target = target
        self.calls = []
    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.target, name)

def run():
    p = Proxy([3, 1, 2])
    n = p.count(1)
    p.append(0)
    return [n, p.target, p.calls]
