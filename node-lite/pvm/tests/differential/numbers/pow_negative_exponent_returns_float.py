def run():
    return [
        repr(2 ** -1),
        repr(10 ** -3),
        repr((-2) ** -2),
        repr(pow(4, -0.5)),
        type(2 ** 3).__name__,
        type(2 ** -3).__name__,
        repr(0.0 ** 0),
        0 ** 0,
    ]
