class Base:
    def __init__(self):
        self.__secret = "base"
        self._protected = "p"

    def reveal(self):
        return self.__secret

    def __hidden(self):
        return "hidden-base"

    def call_hidden(self):
        return self.__hidden()


class Child(Base):
    def __init__(self):
        super().__init__()
        self.__secret = "child"

    def child_secret(self):
        return self.__secret

    def __hidden(self):
        return "hidden-child"


def run():
    c = Child()
    out = [c.reveal(), c.child_secret(), c.call_hidden()]
    out.append([hasattr(c, "_Base__secret"), hasattr(c, "_Child__secret"), hasattr(c, "__secret")])
    out.append(c._Base__secret)
    out.append(c._Child__hidden())
    try:
        c.__secret
    except AttributeError as e:
        out.append(str(e))
    out.append(hasattr(Base, "_Base__hidden"))
    return out
