def merge(iv):
    iv = sorted(iv)
    out = [list(iv[0])]
    for s, e in iv[1:]:
        if s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out

def run():
    return merge([(1, 3), (2, 6), (8, 10), (15, 18), (17, 20)])
