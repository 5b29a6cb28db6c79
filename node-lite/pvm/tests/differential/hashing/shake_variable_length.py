import hashlib


def run():
    s128 = hashlib.shake_128(b"abc")
    s256 = hashlib.shake_256(b"abc")
    return [
        s128.hexdigest(16),
        s128.hexdigest(32),
        s128.hexdigest(32).startswith(s128.hexdigest(16)),
        s256.hexdigest(8),
        s256.digest(4),
        len(s256.digest(100)),
        s128.hexdigest(0),
        s128.name, s256.name, s128.digest_size, s128.block_size, s256.block_size,
        hashlib.shake_128(b"").hexdigest(10),
    ]
