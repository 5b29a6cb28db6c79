def run():
    seen = set()
    out = []
    for x in [3, 1, 3, 2, 1, 5, 2]:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out
