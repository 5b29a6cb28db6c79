# refused: dunder-attribute
def add_repr(cls):
    fields = cls.FIELDS

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"{cls.__name__}({inner})"

    cls.__repr__ = __repr__
    return cls


@add_repr
class User:
    FIELDS = ("name", "age")

    def __init__(self, name, age):
        self.name = name
        self.age = age


def run():
    u = User("ann", 30)
    return [repr(u), repr([u])]
