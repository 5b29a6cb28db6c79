def run():
    vals = [0, 1, 2, 255, 256, -1, -255, -256, 2**64 - 1, 2**64, -(2**100)]
    return [[v, v.bit_length(), v.bit_count()] for v in vals]
