class NonData:
    def __get__(self, obj, objtype=None):
        return "from non-data descriptor"


class Data:
    def __get__(self, obj, objtype=None):
        return "from data descriptor"

    def __set__(self, obj, value):
        obj.__dict__["stored"] = value


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
        obj.__dict__[self.name] = value
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
    out = [h.nd, h.d]
    h.__dict__["nd"] = "instance wins"
    h.__dict__["d"] = "instance loses"
    out += [h.nd, h.d]
    h.d = "via set"
    out.append(h.__dict__["stored"])
    out.append(Holder.nd)
    r = Report()
    out += [r.total, r.total, r.computed, "total" in vars(r)]
    out.append(type(Report.total).__name__)
    return out
