def run():
    a, b = 0, 1
    seq = []
    for _ in range(90):
        seq.append(a)
        a, b = b, a + b
    return [seq[:15], str(seq[-1])]
