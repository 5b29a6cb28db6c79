def run():
    tree = {}
    for path in ["a/b/c", "a/b/d", "a/e", "f"]:
        node = tree
        for part in path.split("/"):
            node = node.setdefault(part, {})
    return tree
