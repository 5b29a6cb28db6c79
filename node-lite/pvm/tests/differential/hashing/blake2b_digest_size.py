import hashlib


def run():
    out = []
    for size in [1, 16, 20, 32, 64]:
        h = hashlib.blake2b(b"hello", digest_size=size)
        out.append([size, h.digest_size, h.hexdigest()])
    d = hashlib.blake2b(b"")
    out.append([d.name, d.digest_size, d.block_size, d.hexdigest()])
    for bad in [0, 65]:
        try:
            hashlib.blake2b(b"x", digest_size=bad)
        except ValueError as e:
            out.append([type(e).__name__, str(e)])
    return out
