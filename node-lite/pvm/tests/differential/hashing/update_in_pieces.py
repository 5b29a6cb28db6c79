import hashlib


def run():
    data = b"The quick brown fox jumps over the lazy dog" * 5
    out = []
    for name in ["sha256", "md5", "sha3_256", "blake2b", "sha512"]:
        one = hashlib.new(name, data).hexdigest()
        h = hashlib.new(name)
        for i in range(0, len(data), 7):
            h.update(data[i:i + 7])
        out.append([name, one == h.hexdigest(), h.hexdigest()[:16]])
    h = hashlib.sha256()
    h.update(b"")
    h.update(b"ab")
    h.update(b"c")
    out.append(h.hexdigest() == hashlib.sha256(b"abc").hexdigest())
    out.append(h.hexdigest() == h.hexdigest())
    return out
