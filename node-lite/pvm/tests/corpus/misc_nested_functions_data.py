def make_inventory():
    items = {}
    def add(name, qty):
        items[name] = items.get(name, 0) + qty
    def remove(name, qty):
        if items.get(name, 0) < qty:
            return False
        items[name] -= qty
        if items[name] == 0:
            del items[name]
        return True
    def snapshot():
        return dict(sorted(items.items()))
    return add, remove, snapshot

def run():
    add, remove, snap = make_inventory()
    add("apple", 5)
    add("pear", 2)
    ok = [remove("apple", 3), remove("pear", 5), remove("pear", 2)]
    return [ok, snap()]
