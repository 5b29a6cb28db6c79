# refused: dunder-attribute
class Greeter:
    def __init__(self, name):
        self.name = name

    def greet(self):
        return "Hi " + self.name


def run():
    g = Greeter("bo")
    m = g.greet
    return [m.__self__ is g, m.__func__ is Greeter.greet, m.__func__(Greeter("al"))]
