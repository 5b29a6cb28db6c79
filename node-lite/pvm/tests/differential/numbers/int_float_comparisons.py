def run():
    big = 2**53 + 1
    return [
        1 == 1.0, 0.1 + 0.2 == 0.3, big == float(big), big > float(big), 2**53 == float(2**53),
        10**400 > 1e308, 10**400 < float("inf"), -10**400 > float("-inf"),
        1 < 1.5 < 2, True == 1.0, 3 >= 3.0, (2**63) == 9.223372036854776e18,
    ]
