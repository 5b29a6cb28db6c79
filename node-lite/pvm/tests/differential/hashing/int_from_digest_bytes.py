import hashlib


def run():
    d = hashlib.sha256(b"seed").digest()
    big = int.from_bytes(d, "big")
    little = int.from_bytes(d, "little")
    signed = int.from_bytes(d[:4], "big", signed=True)
    bucket = big % 1000
    return [
        big, little, signed, bucket,
        big.bit_length() <= 256,
        big.to_bytes(32, "big") == d,
        int.from_bytes(d[:8], byteorder="big"),
        int(hashlib.sha256(b"seed").hexdigest(), 16) == big,
        int.from_bytes(hashlib.md5(b"x").digest()[:2], "little"),
        (0).to_bytes(4, "big"),
        int.from_bytes(b"", "big"),
    ]
