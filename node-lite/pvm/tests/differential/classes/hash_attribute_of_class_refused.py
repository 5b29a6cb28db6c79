# refused: dunder-attribute
class Base:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __hash__(self):
        return hash(self.v)


class Sub(Base):
    def __eq__(self, other):
        return super().__eq__(other)


class SubKeepsHash(Base):
    def __eq__(self, other):
        return super().__eq__(other)

    __hash__ = Base.__hash__


def run():
    return [Sub.__hash__ is None, SubKeepsHash.__hash__ is Base.__hash__, len({SubKeepsHash(1), SubKeepsHash(1)})]
