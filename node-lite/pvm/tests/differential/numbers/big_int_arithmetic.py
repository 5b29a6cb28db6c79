def run():
    a = 2 ** 200 + 12345
    b = 3 ** 100
    return [a * b, a // b, a % b, -a // b, a - b * 10**30, str(2**256)[:20], len(str(7**300)),
            (a * b) // a == b, abs(-a) == a]
