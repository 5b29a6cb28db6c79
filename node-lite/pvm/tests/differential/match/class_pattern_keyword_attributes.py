class Account:
    def __init__(self, owner, balance, frozen=False):
        self.owner = owner
        self.balance = balance
        self.frozen = frozen


def status(acct):
    match acct:
        case Account(frozen=True):
            return "frozen"
        case Account(balance=0, owner=o):
            return f"{o} empty"
        case Account(balance=int(b)) if b < 0:
            return "overdrawn"
        case Account(owner=str(name), balance=int(bal)):
            return f"{name}:{bal}"
        case Account(nickname=n):
            return "has nickname " + n
        case _:
            return "unrecognized"


def run():
    odd = Account(7, 3)
    odd.nickname = "seven"
    return [status(Account("a", 5, frozen=True)), status(Account("b", 0)),
            status(Account("c", -4)), status(Account("d", 12)), status(odd),
            status(Account(None, "x")), status({"owner": "a"})]
