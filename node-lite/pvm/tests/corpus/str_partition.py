def run():
    return ["key=value=x".partition("="), "key=value=x".rpartition("="), "none".partition("="), "a.b.c".rsplit(".", 1)]
