class NonData:
    def __get__(self, obj, objtype=None):
        return "from non-data descriptor"


class Data:
    def __get__(self, obj, objtype=None):
        return "from data descriptor"

    def __set__(self, obj, value):
        obj.stored = value


class Holder:
    nd = NonData()
    d = Data()


class Lazy:
    def __init__(self, func):
        self.func = func
        self.name = func.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = self.func(obj)
        setattr(obj, self.name, value)
        return value


class Report:
    def __init__(self):
        self.computed = 0

    @Lazy
    def total(self):
        self.computed += 1
        return 42


def run():
    h = Holder()
    out = [h.nd, h.d, hasattr(h, "stored")]
    h.nd = "instance wins"
    out.append(h.nd)
    h.d = "via set"
    out += [h.d, h.stored]
    del h.nd
    out.append(h.nd)
    try:
        del h.d
    except AttributeError as e:
        out.append(str(e))
    out.append(Holder.nd)
    r = Report()
    out += [r.total, r.total, r.computed]
    del r.total
    out += [r.total, r.computed]
    out.append(type(Report.total).__name__)
    return out
