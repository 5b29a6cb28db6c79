# refused: dunder-attribute
class Account:
    @property
    def balance(self):
        return 0

    def deposit(self, n):
        return n


def run():
    return [isinstance(Account.__dict__["balance"], property), sorted(k for k in Account.__dict__ if not k.startswith("_"))]
