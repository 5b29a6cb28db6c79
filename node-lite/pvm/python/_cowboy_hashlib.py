"""hashlib for actors: deterministic, metered message digests.

Actors that ``import hashlib`` get this module: ``hashlib.sha256(data).hexdigest()`` and friends
work as usual. Digests are computed when ``digest()`` or ``hexdigest()`` is called and cost
cycles in proportion to the bytes hashed (SHA-256: 500 + 8 per 64-byte block, the whitepaper's
price; other algorithms at the same per-block rate).
"""

import pvm_host as _host

__all__ = [
    "new", "algorithms_available", "algorithms_guaranteed",
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512",
    "sha3_224", "sha3_256", "sha3_384", "sha3_512", "blake2b", "blake2s",
]

algorithms_guaranteed = frozenset([
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512",
    "sha3_224", "sha3_256", "sha3_384", "sha3_512", "blake2b", "blake2s",
])
algorithms_available = algorithms_guaranteed

# Bytes per compression-function block (CPython's ``block_size``; ``hmac`` pads keys to it).
_BLOCK_SIZES = {
    "md5": 64, "sha1": 64, "sha224": 64, "sha256": 64, "sha384": 128, "sha512": 128,
    "sha3_224": 144, "sha3_256": 136, "sha3_384": 104, "sha3_512": 72,
    "blake2b": 128, "blake2s": 64,
}


class _Hash:
    def __init__(self, name, data=b""):
        if name not in algorithms_guaranteed:
            raise ValueError("unsupported hash type " + name)
        self.name = name
        self._data = bytearray()
        if data:
            self.update(data)

    def update(self, data):
        if isinstance(data, str):
            raise TypeError("Strings must be encoded before hashing")
        self._data += data

    def digest(self):
        return _host.digest(self.name, bytes(self._data))

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = _Hash(self.name)
        other._data = bytearray(self._data)
        return other

    @property
    def digest_size(self):
        return len(self.digest())

    @property
    def block_size(self):
        return _BLOCK_SIZES[self.name]

    def __repr__(self):
        return "<%s _hashlib.HASH object>" % self.name


def new(name, data=b""):
    return _Hash(name.lower().replace("-", "_"), data)


def md5(data=b""):
    return _Hash("md5", data)


def sha1(data=b""):
    return _Hash("sha1", data)


def sha224(data=b""):
    return _Hash("sha224", data)


def sha256(data=b""):
    return _Hash("sha256", data)


def sha384(data=b""):
    return _Hash("sha384", data)


def sha512(data=b""):
    return _Hash("sha512", data)


def sha3_224(data=b""):
    return _Hash("sha3_224", data)


def sha3_256(data=b""):
    return _Hash("sha3_256", data)


def sha3_384(data=b""):
    return _Hash("sha3_384", data)


def sha3_512(data=b""):
    return _Hash("sha3_512", data)


def blake2b(data=b""):
    return _Hash("blake2b", data)


def blake2s(data=b""):
    return _Hash("blake2s", data)
