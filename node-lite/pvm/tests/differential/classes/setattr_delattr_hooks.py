class Frozen:
    def __init__(self, **kw):
        for k, v in kw.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot set {name!r}: instance is frozen")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete {name!r}")


class Audited:
    def __init__(self):
        self.log = []
        self.value = 1

    def __setattr__(self, name, value):
        if name != "log":
            self.log.append((name, value))
        super().__setattr__(name, value)


def run():
    f = Frozen(a=1, b=2)
    out = [f.a, f.b]
    for action in (lambda: setattr(f, "a", 5), lambda: delattr(f, "b")):
        try:
            action()
        except AttributeError as e:
            out.append(str(e))
    a = Audited()
    a.value = 2
    setattr(a, "other", "x")
    out.append(a.log)
    out.append([a.value, getattr(a, "other")])
    delattr(a, "other")
    out.append(hasattr(a, "other"))
    return out
