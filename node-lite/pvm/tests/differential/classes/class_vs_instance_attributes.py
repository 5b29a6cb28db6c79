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
    out.append([hasattr(a, "name"), hasattr(a, "retries"), hasattr(Config, "add_tag")])
    Config.tags = ["shared"]
    a.tags = ["own"]
    out.append([a.tags, b.tags, Config.tags])
    out.append(hasattr(a, "name") and not hasattr(Config, "name"))
    try:
        del a.retries
    except AttributeError as e:
        out.append(str(e))
    return out
