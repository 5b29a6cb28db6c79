# refused: dunder-attribute
class ContractError(Exception):
    pass


class NotOwner(ContractError):
    pass


def run():
    return [[c.__name__ for c in NotOwner.__mro__], [c.__name__ for c in KeyError.__mro__]]
