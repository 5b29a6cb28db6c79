# refused: abc-register
from abc import ABCMeta


class Sized(metaclass=ABCMeta):
    pass


class Ledger:
    def __len__(self):
        return 3


def run():
    before = [isinstance(Ledger(), Sized), issubclass(Ledger, Sized)]
    Sized.register(Ledger)
    return before + [isinstance(Ledger(), Sized), issubclass(Ledger, Sized), isinstance([], Sized)]
