def run():
    big = 2 ** 4000
    return [big.bit_length(), (big - 1).bit_length(), str(big)[:10], len(str(big))]
