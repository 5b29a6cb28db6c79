import hashlib


def run():
    prefix = hashlib.sha256(b"common-prefix:")
    a = prefix.copy()
    a.update(b"alpha")
    b = prefix.copy()
    b.update(b"beta")
    m = hashlib.md5(b"x")
    m2 = m.copy()
    m2.update(b"y")
    bl = hashlib.blake2b(b"k", digest_size=8)
    bl2 = bl.copy()
    bl2.update(b"more")
    return [
        a.hexdigest() == hashlib.sha256(b"common-prefix:alpha").hexdigest(),
        b.hexdigest() == hashlib.sha256(b"common-prefix:beta").hexdigest(),
        prefix.hexdigest() == hashlib.sha256(b"common-prefix:").hexdigest(),
        m.hexdigest(), m2.hexdigest(),
        bl.hexdigest(), bl2.hexdigest(), bl2.digest_size,
    ]
