# refused: dunder-attribute
class Base:
    pass


class Left(Base):
    pass


class Right(Base):
    pass


class Both(Left, Right):
    pass


def run():
    return [[c.__name__ for c in Both.__bases__], [c.__name__ for c in Left.__bases__]]
