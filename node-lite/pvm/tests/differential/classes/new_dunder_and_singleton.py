# refused: dunder-attribute
class Singleton:
    _instance = None

    def __new__(cls, *args, **kwargs):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.inits = 0
        return cls._instance

    def __init__(self, value):
        self.inits += 1
        self.value = value


class Upper(str):
    def __new__(cls, text):
        return super().__new__(cls, text.upper())


class NotMine:
    def __new__(cls):
        return 42

    def __init__(self):
        raise RuntimeError("never called")


def run():
    a = Singleton(1)
    b = Singleton(2)
    u = Upper("abc")
    return [
        a is b,
        a.value,
        a.inits,
        str(u),
        type(u).__name__,
        u + "d",
        isinstance(u, str),
        NotMine(),
    ]
