class Base:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return type(self) is type(other) and self.v == other.v

    def __hash__(self):
        return hash(self.v)


class Sub(Base):
    def __eq__(self, other):
        return super().__eq__(other)


class SubKeepsHash(Base):
    def __eq__(self, other):
        return super().__eq__(other)

    def __hash__(self):
        return super().__hash__()


class OnlyHash(Base):
    pass


def run():
    out = []
    try:
        hash(Sub(1))
    except TypeError as e:
        out.append(str(e))
    try:
        {Sub(1)}
    except TypeError as e:
        out.append(str(e))
    out.append(Sub(1) == Sub(1))
    out.append(hash(OnlyHash(7)) == hash(Base(7)) == hash(7))
    s = {SubKeepsHash(1), SubKeepsHash(1), SubKeepsHash(2)}
    out.append(len(s))
    out.append(len({OnlyHash(1): 1, OnlyHash(1): 2}))
    out.append(Base(1) == OnlyHash(1))
    out.append(Base(1) != Base(2))
    return out
