def encode(s):
    if not s:
        return []
    out = []
    prev, n = s[0], 1
    for c in s[1:]:
        if c == prev:
            n += 1
        else:
            out.append((prev, n))
            prev, n = c, 1
    out.append((prev, n))
    return out

def decode(pairs):
    return "".join(c * n for c, n in pairs)

def run():
    e = encode("wwwwaaadexxxxxx")
    return [e, decode(e)]
