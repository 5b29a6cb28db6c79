def run():
    x = 0b101101
    return [x & 0b111, x | 0b10, x ^ 0xff, ~x, x << 5, x >> 2, bin(x), hex(255), oct(8), (-1) >> 3]
