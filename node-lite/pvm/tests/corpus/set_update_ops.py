def run():
    s = {1, 2}
    s |= {3}
    s &= {1, 3, 4}
    s -= {1}
    s ^= {7, 3}
    return sorted(s)
