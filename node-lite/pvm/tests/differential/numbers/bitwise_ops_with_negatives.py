def run():
    a, b = 0b1100, -0b1010
    out = [a & b, a | b, a ^ b, ~a, ~b, -1 & 0xFF, -256 & 0xFF, (-1) ^ 0xF0]
    out += [1 << 100, (1 << 100) >> 99, -1 >> 5, -16 >> 2, -17 >> 2, 5 >> 10, -5 >> 10]
    try:
        1 << -1
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    return out
