# refused: dunder-attribute
class Lazy:
    def __init__(self, func):
        self.func = func
        self.name = func.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


class Report:
    @Lazy
    def total(self):
        return 42


def run():
    r = Report()
    r.__dict__["other"] = 1
    return [r.total, "total" in r.__dict__, sorted(r.__dict__)]
