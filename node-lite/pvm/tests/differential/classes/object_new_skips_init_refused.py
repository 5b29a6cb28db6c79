# refused: dunder-attribute
class NeedsArgs:
    def __init__(self, a, b=2, *, c):
        self.total = a + b + c


def run():
    try:
        object.__new__(NeedsArgs).total
    except AttributeError as e:
        return str(e)
