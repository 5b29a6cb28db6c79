# refused: dunder-attribute
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return isinstance(other, Money) and self.cents == other.cents


class Plain:
    pass


def run():
    return [Money.__hash__ is None, Plain.__hash__ is not None]
