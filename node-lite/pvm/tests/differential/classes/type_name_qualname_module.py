class Outer:
    class Inner:
        def method(self):
            pass

    def make(self):
        class Local:
            pass

        return Local()


def run():
    o = Outer()
    loc = o.make()
    return [
        type(o).__name__,
        type(Outer.Inner()).__name__,
        Outer.Inner.__qualname__,
        Outer.Inner.method.__qualname__,
        type(loc).__qualname__,
        type(loc).__name__,
        type(3).__name__,
        type(type).__name__,
        type(None).__name__,
        type(o.make).__name__,
        type(Outer.make).__name__,
        Outer.__class__.__name__,
        o.__class__ is Outer,
    ]
