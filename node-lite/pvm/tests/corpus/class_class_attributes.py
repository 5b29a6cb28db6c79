class Registry:
    items = []
    def __init__(self, name):
        self.name = name
        Registry.items.append(name)

def run():
    Registry("a")
    Registry("b")
    r = Registry("c")
    r.items = ["shadow"]
    return [Registry.items, r.items, Registry("d").items]
