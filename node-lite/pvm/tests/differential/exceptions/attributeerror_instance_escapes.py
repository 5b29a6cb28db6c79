class Account:
    def __init__(self):
        self.balance = 0


def run():
    a = Account()
    return a.balance + a.owner
