def run():
    data = {"name": "alice", "age": 30, "score": 91.456}
    return [
        "%(name)s is %(age)d" % data,
        "%(score).1f" % data,
        "%(name)-8s|%(age)04d" % data,
        "%(name)r" % data,
        "%(age)s %(age)s" % data,
        "%*d|" % (6, 42),
        "%-*d|" % (6, 42),
        "%.*f" % (2, 3.14159),
        "%*.*f|" % (8, 3, 2.71828),
        "%(x)s" % {"x": None},
        "%%(name)s" % (),
    ]
