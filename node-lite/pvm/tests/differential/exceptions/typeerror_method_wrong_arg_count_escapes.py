class Ledger:
    def credit(self, who, amount):
        return who, amount


def run():
    return Ledger().credit("alice")
