def run():
    words = [
        "they're bill's friends",
        "hello world",
        "3rd place",
        "a1b2c3",
        "HELLO wORLD",
        "o'neil mc-donald",
        "ǆemal",
        "__init__ value",
        "ß-test",
    ]
    out = []
    for w in words:
        t = w.title()
        out.append([t, t.istitle()])
    return out
