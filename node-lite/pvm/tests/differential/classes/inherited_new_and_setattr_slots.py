class Plain:
    pass


class WithInit:
    def __init__(self, x):
        self.x = x


class Child(WithInit):
    pass


class Slotted:
    __slots__ = ("a",)


class Failure(Exception):
    pass


class Keyed(dict):
    pass


class OwnNew:
    def __new__(cls, *args):
        return ["made by __new__", cls.__name__, list(args)]


class OwnNewChild(OwnNew):
    def __init__(self, a):
        self.a = a


class Hooked:
    def __setattr__(self, name, value):
        super().__setattr__(name, value * 10)


class HookedChild(Hooked):
    pass


class Name(str):
    def __str__(self):
        raise ValueError("an attribute name's __str__ ran")


def errors(*actions):
    out = []
    for action in actions:
        try:
            out.append(["ok", action()])
        except (TypeError, AttributeError, ValueError) as e:
            out.append([type(e).__name__, str(e)])
    return out


def run():
    out = []
    # What object.__new__ checks: arguments to a class without __init__.
    out.append(errors(lambda: Plain(1), lambda: Plain(k=1), lambda: type(Plain()).__name__))
    out.append([Child(5).x, type(Child(6)).__name__])
    # Stores and deletes through the slot a class inherits from object.
    c = Child(1)
    c.y = 2
    del c.x
    out.append(errors(lambda: c.x, lambda: delattr(c, "x"), lambda: c.y))
    s = Slotted()
    s.a = 1
    out.append(errors(lambda: s.a, lambda: setattr(s, "b", 2), lambda: delattr(s, "a"), lambda: s.a))
    failure = Failure("boom")
    failure.code = 7
    out.append([failure.code, str(failure), failure.args])
    k = Keyed(a=1)
    k.note = "n"
    out.append([k.note, dict(k)])
    # Classes that define __new__ or __setattr__ themselves, or inherit them from a class that does.
    out.append([OwnNew(1, 2), OwnNewChild(3)])
    hooked = HookedChild()
    hooked.v = 2
    out.append(hooked.v)
    # A str subclass as a name is stored by its text; its __str__ never runs.
    setattr(c, Name("n1"), 1)
    setattr(hooked, Name("n2"), 3)
    delattr(c, Name("n1"))
    out.append([hasattr(c, "n1"), hooked.n2])
    # A class made at run time (dunder methods cannot be given to a class after it was made:
    # setattr refuses dunder names, rule dunder-attribute).
    made = type("Made", (WithInit,), {})
    out.append(made(8).x)
    return out
