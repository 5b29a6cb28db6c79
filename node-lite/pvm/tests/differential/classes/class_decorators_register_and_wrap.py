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


def add_describe(cls):
    fields = cls.FIELDS

    def describe(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"{cls.__name__}({inner})"

    cls.describe = describe
    return cls


@register
@with_greeting("Hello")
@add_describe
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
    return [REGISTRY, u.greet(), User.greeting, u.describe(), [x.describe() for x in [u, User("bo", 4)]],
            hasattr(Other, "greet"), User.describe.__name__]
