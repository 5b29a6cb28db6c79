# refused: dunder-attribute
class Animal:
    pass


class Dog(Animal):
    pass


def run():
    return [c.__name__ for c in Dog.__mro__]
