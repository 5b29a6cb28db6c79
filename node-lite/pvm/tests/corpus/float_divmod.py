def run():
    return [repr(7.5 // 2), repr(7.5 % 2), repr(-7.5 % 2), repr(divmod(9.0, 4)), repr(2 ** -2), repr(10 / 4), repr(1e308 + 1e308)]
