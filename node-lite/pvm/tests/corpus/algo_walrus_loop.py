def run():
    data = [3, 8, 1, 9, 4]
    out = []
    i = 0
    while (n := len(data) - i) > 0:
        out.append(data[i] * n)
        i += 1
    return out
