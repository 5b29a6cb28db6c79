import copy


class Tracked:
    def __init__(self, data, label):
        self.data = data
        self.label = label
        self.log = []

    def __copy__(self):
        new = Tracked(self.data, self.label + "-copy")
        new.log = ["copied"]
        return new

    def __deepcopy__(self, memo):
        new = Tracked(copy.deepcopy(self.data, memo), self.label + "-deep")
        new.log = ["deep"]
        return new


class Plain:
    def __init__(self):
        self.items = [1, 2]
        self.name = "p"


class WithSlots:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b


def run():
    t = Tracked([1, [2]], "t")
    c = copy.copy(t)
    d = copy.deepcopy(t)
    p = Plain()
    pc = copy.copy(p)
    pd = copy.deepcopy(p)
    pc.items.append(3)
    s = WithSlots([1], "x")
    sc = copy.deepcopy(s)
    sc.a.append(2)
    wrapped = copy.deepcopy({"obj": t})
    return [c.label, c.log, c.data is t.data, d.label, d.log, d.data is t.data, d.data == t.data,
            p.items, pd.items, pd.name, s.a, sc.a, sc.b, wrapped["obj"].label]
