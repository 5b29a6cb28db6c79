class Ledger:
    def __init__(self):
        self.balances = {}
        self.log = []
    def transfer(self, src, dst, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        if self.balances.get(src, 0) < amount:
            raise ValueError("insufficient funds")
        self.balances[src] -= amount
        self.balances[dst] = self.balances.get(dst, 0) + amount
        self.log.append((src, dst, amount))

def run():
    l = Ledger()
    l.balances["mint"] = 1000
    l.transfer("mint", "alice", 300)
    l.transfer("alice", "bob", 120)
    errs = []
    for args in [("bob", "alice", 500), ("alice", "bob", -1)]:
        try:
            l.transfer(*args)
        except ValueError as e:
            errs.append(str(e))
    return [l.balances, errs, len(l.log)]
