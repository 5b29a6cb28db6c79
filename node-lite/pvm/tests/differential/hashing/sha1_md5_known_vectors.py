import hashlib


def run():
    return [
        hashlib.sha1(b"").hexdigest(),
        hashlib.sha1(b"The quick brown fox jumps over the lazy dog").hexdigest(),
        hashlib.md5(b"").hexdigest(),
        hashlib.md5(b"The quick brown fox jumps over the lazy dog").hexdigest(),
        hashlib.md5(b"The quick brown fox jumps over the lazy dog.").hexdigest(),
        hashlib.md5(b"abc", usedforsecurity=False).hexdigest(),
        hashlib.sha1(b"abc").digest(),
    ]
