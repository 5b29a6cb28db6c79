class Account:
    def __init__(self, owner):
        self.__owner = owner
        self.__balance = 0
        self._Account__audit = []

    def deposit(self, n):
        self.__balance += n
        self.__audit.append(n)
        return self.__balance

    def owner(self):
        def inner():
            return self.__owner.upper()
        return inner()


class _Hidden:
    def __init__(self):
        self.__x = 5

    def get(self):
        return self.__x


class Savings(Account):
    def __init__(self, owner):
        super().__init__(owner)
        self.__balance = "savings-own"

    def own(self):
        return self.__balance


def run():
    a = Account("ann")
    a.deposit(5)
    a.deposit(7)
    s = Savings("bob")
    s.deposit(3)
    try:
        a.__balance
        missing = None
    except AttributeError as e:
        missing = str(e)
    return [
        a.deposit(0), a.owner(), a._Account__audit, _Hidden().get(), _Hidden()._Hidden__x,
        s.own(), s.deposit(1), s._Savings__balance, s._Account__balance, missing,
    ]
