def run():
    return [
        list(divmod(17, 5)),
        list(divmod(-17, 5)),
        [repr(x) for x in divmod(7.5, 2)],
        [repr(x) for x in divmod(-7.5, 2)],
        [repr(x) for x in divmod(7, -2.0)],
        list(divmod(True, 2)),
    ]
