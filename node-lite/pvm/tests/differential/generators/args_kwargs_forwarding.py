def describe(*args, **kwargs):
    return [list(args), kwargs]


def wrapper(prefix, *args, sep="-", **kwargs):
    return [prefix, sep, describe(*args, **kwargs)]


def run():
    params = {"to": "bob", "amount": 5}
    extra = (1, 2)
    return [
        describe(),
        describe(1, *extra, 3),
        describe(**params, memo="m"),
        describe(*"ab", **{"x": 1}, **{"y": 2}),
        wrapper("p", 1, 2, sep="+", k=3),
        wrapper(*["only"]),
        type(describe(1)[0]).__name__,
    ]
