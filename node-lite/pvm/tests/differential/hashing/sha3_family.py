import hashlib


def run():
    out = {}
    for name in ["sha3_224", "sha3_256", "sha3_384", "sha3_512"]:
        h = hashlib.new(name, b"abc")
        out[name] = [h.name, h.digest_size, h.block_size, h.hexdigest()]
    out["empty"] = hashlib.sha3_256(b"").hexdigest()
    out["differs_from_sha256"] = hashlib.sha3_256(b"abc").digest() != hashlib.sha256(b"abc").digest()
    return out
