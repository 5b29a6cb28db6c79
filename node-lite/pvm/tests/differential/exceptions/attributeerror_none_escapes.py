def find(items, key):
    for item in items:
        if item == key:
            return item


def run():
    return find(["a"], "b").x
