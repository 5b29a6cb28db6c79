import hashlib


def run():
    h = hashlib.blake2s(b"abc")
    return [
        h.name, h.digest_size, h.block_size, h.hexdigest(),
        hashlib.blake2s(b"abc", digest_size=16).hexdigest(),
        hashlib.blake2s(b"abc", key=b"k" * 32).hexdigest(),
        hashlib.blake2s(b"abc", salt=b"12345678", person=b"app").hexdigest(),
        hashlib.blake2s.SALT_SIZE, hashlib.blake2s.PERSON_SIZE,
        hashlib.blake2s.MAX_KEY_SIZE, hashlib.blake2s.MAX_DIGEST_SIZE,
        hashlib.blake2b.SALT_SIZE, hashlib.blake2b.MAX_DIGEST_SIZE,
    ]
