class Greeter:
    prefix = "Hi"

    def __init__(self, name):
        self.name = name

    def greet(self, punct="!"):
        return f"{self.prefix} {self.name}{punct}"


def shout(self):
    return self.name.upper()


def run():
    g = Greeter("bo")
    m = g.greet
    out = [m(), m("?"), m() == Greeter.greet(g), Greeter.greet(g, "."), m.__name__, m.__qualname__]
    g.name = "cy"
    out.append(m())
    Greeter.shout = shout
    out.append(g.shout())
    g.loud = shout
    try:
        g.loud()
    except TypeError as e:
        out.append(str(e))
    out.append(g.loud(g))
    out.append(g.greet == Greeter("bo").greet)
    out.append(g.greet == g.greet)
    out.append(list(map(Greeter.greet, [Greeter("a"), Greeter("b")])))
    return out
