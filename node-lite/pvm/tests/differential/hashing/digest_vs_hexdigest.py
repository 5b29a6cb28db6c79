import hashlib


def run():
    h = hashlib.sha256(b"payload")
    d = h.digest()
    x = h.hexdigest()
    return [
        type(d).__name__, len(d), type(x).__name__, len(x),
        d.hex() == x,
        bytes.fromhex(x) == d,
        d[:4],
        x[:8],
        x == x.lower(),
    ]
