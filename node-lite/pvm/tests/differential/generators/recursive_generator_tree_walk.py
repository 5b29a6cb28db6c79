def walk(node, path=()):
    name, children = node
    here = path + (name,)
    yield "/".join(here)
    for child in children:
        yield from walk(child, here)


def leaves(node):
    name, children = node
    if not children:
        yield name
    for child in children:
        yield from leaves(child)


def run():
    tree = ("root", [("a", [("a1", []), ("a2", [])]), ("b", []), ("c", [("c1", [("c11", [])])])])
    return [list(walk(tree)), list(leaves(tree)), sum(1 for _ in walk(tree))]
