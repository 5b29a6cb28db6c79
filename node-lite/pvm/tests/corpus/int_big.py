def run():
    a = 2 ** 200 + 12345
    b = 3 ** 100
    return [str(a * b), str(a // b), str(a % b), (a * b).bit_length(), str(-a), a > b]
