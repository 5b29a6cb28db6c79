def run():
    inf, nan = float("inf"), float("nan")
    return [
        repr(inf + 1), repr(inf - inf), repr(inf * 0), repr(-inf * -2), repr(1 / inf),
        repr(nan + 1), nan == nan, nan != nan, nan < 1, nan > 1, inf == inf, inf > 10**1000,
        repr(5 % inf), repr(-5 % inf), repr(max(1.0, inf)),
    ]
