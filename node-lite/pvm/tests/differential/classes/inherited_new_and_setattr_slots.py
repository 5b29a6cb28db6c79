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


def errors(*actions):
    out = []
    for action in actions:
        try:
            out.append(["ok", action()])
        except (TypeError, AttributeError) as e:
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
    # A class made at run time (dunder methods cannot be given to a class after it was made:
    # setattr refuses dunder names, rule dunder-attribute).
    made = type("Made", (WithInit,), {})
    out.append(made(8).x)
    return out
