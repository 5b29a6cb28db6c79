class Config:
    retries = 3
    tags = []
    registry = {}

    def __init__(self, name):
        self.name = name

    def add_tag(self, t):
        self.tags.append(t)


def run():
    a = Config("a")
    b = Config("b")
    out = [a.retries, b.retries]
    a.retries = 10
    out += [a.retries, b.retries, Config.retries]
    Config.retries = 5
    out += [a.retries, b.retries]
    del a.retries
    out.append(a.retries)
    a.add_tag("x")
    b.add_tag("y")
    out.append(Config.tags)
    out.append(a.tags is b.tags)
    out.append(sorted(vars(a)))
    out.append("retries" in Config.__dict__)
    out.append(hasattr(a, "name") and not hasattr(Config, "name"))
    try:
        del a.retries
    except AttributeError as e:
        out.append(str(e))
    return out
