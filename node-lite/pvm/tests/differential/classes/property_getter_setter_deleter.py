class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self._balance = balance
        self.log = []

    @property
    def balance(self):
        """Current balance."""
        return self._balance

    @balance.setter
    def balance(self, value):
        if value < 0:
            raise ValueError("balance cannot be negative")
        self.log.append(("set", value))
        self._balance = value

    @balance.deleter
    def balance(self):
        self.log.append(("del",))
        self._balance = 0


def run():
    a = Account("ann", 10)
    out = [a.balance]
    a.balance = 25
    out.append(a.balance)
    try:
        a.balance = -1
    except ValueError as e:
        out.append(str(e))
    del a.balance
    out.append(a.balance)
    out.append(a.log)
    out.append(Account.balance.__doc__)
    out.append(type(Account.balance).__name__)
    out.append(isinstance(Account.balance, property))
    try:
        Account.balance.fset(a, -5)
    except ValueError as e:
        out.append(str(e))
    Account.balance.fset(a, 7)
    out.append([Account.balance.fget(a), a.log[-1]])
    return out
