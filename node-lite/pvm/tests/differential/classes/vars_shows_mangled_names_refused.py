# refused: forbidden-builtin
class Base:
    def __init__(self):
        self.__secret = "base"
        self._protected = "p"


class Child(Base):
    def __init__(self):
        super().__init__()
        self.__secret = "child"


def run():
    return sorted(vars(Child()))
