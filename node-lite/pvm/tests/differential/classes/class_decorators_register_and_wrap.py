REGISTRY = []


def register(cls):
    REGISTRY.append(cls.__name__)
    return cls


def with_greeting(greeting):
    def deco(cls):
        def greet(self):
            return f"{greeting}, {self.name}"

        cls.greet = greet
        cls.greeting = greeting
        return cls

    return deco


def add_repr(cls):
    fields = cls.FIELDS

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"{cls.__name__}({inner})"

    cls.__repr__ = __repr__
    return cls


@register
@with_greeting("Hello")
@add_repr
class User:
    FIELDS = ("name", "age")

    def __init__(self, name, age):
        self.name = name
        self.age = age


@register
class Other:
    pass


def run():
    u = User("ann", 30)
    return [REGISTRY, u.greet(), User.greeting, repr(u), repr([u])]
