"""hashlib for actors: deterministic, metered message digests.

Actors that ``import hashlib`` get this module: ``hashlib.sha256(data).hexdigest()`` and friends
work as usual, as do BLAKE2's parameters (``digest_size``, ``key``, ``salt``, ``person``), the
SHAKE extendable-output functions and ``pbkdf2_hmac``. Digests are computed when ``digest()``
or ``hexdigest()`` is called and cost cycles in proportion to the bytes hashed (SHA-256: 500 +
8 per 64-byte block, the whitepaper's price; other algorithms at the same per-block rate);
``pbkdf2_hmac`` is charged per HMAC it computes, before it runs.

BLAKE2's tree-hashing parameters (``fanout``, ``depth``, ``leaf_size``, ``node_offset``,
``node_depth``, ``inner_size``, ``last_node``) are not accepted.
"""

import pvm_host as _host

__all__ = [
    "new", "algorithms_available", "algorithms_guaranteed", "pbkdf2_hmac",
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512",
    "sha3_224", "sha3_256", "sha3_384", "sha3_512", "blake2b", "blake2s",
    "shake_128", "shake_256",
]

algorithms_guaranteed = frozenset([
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512",
    "sha3_224", "sha3_256", "sha3_384", "sha3_512", "blake2b", "blake2s",
    "shake_128", "shake_256",
])
algorithms_available = algorithms_guaranteed

# Bytes per compression-function block (CPython's ``block_size``; ``hmac`` pads keys to it).
_BLOCK_SIZES = {
    "md5": 64, "sha1": 64, "sha224": 64, "sha256": 64, "sha384": 128, "sha512": 128,
    "sha3_224": 144, "sha3_256": 136, "sha3_384": 104, "sha3_512": 72,
    "blake2b": 128, "blake2s": 64, "shake_128": 168, "shake_256": 136,
}

_DIGEST_SIZES = {
    "md5": 16, "sha1": 20, "sha224": 28, "sha256": 32, "sha384": 48, "sha512": 64,
    "sha3_224": 28, "sha3_256": 32, "sha3_384": 48, "sha3_512": 64,
}


def _bytes_like(data):
    if isinstance(data, str):
        raise TypeError("Strings must be encoded before hashing")
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("object supporting the buffer API required")
    return data


class _Hash:
    """A message digest: the data is kept, and hashed when the digest is asked for."""

    def __init__(self, name, data=b""):
        if name not in _DIGEST_SIZES:
            raise ValueError("unsupported hash type " + name)
        self.name = name
        self._data = bytearray()
        self.update(data)

    def update(self, data):
        self._data += _bytes_like(data)

    def _copy_into(self, other):
        other._data = bytearray(self._data)
        return other

    def copy(self):
        return self._copy_into(_Hash(self.name))

    def digest(self):
        return _host.digest(self.name, bytes(self._data))

    def hexdigest(self):
        return self.digest().hex()

    @property
    def digest_size(self):
        return _DIGEST_SIZES[self.name]

    @property
    def block_size(self):
        return _BLOCK_SIZES[self.name]

    def __repr__(self):
        return "<%s _hashlib.HASH object @ %#x>" % (self.name, id(self))


class _Blake2(_Hash):
    """BLAKE2 with its parameters; ``blake2b`` and ``blake2s`` set the sizes."""

    def __init__(self, data=b"", *, digest_size=None, key=b"", salt=b"", person=b"",
                 usedforsecurity=True):
        cls = type(self)
        if digest_size is None:
            digest_size = cls.MAX_DIGEST_SIZE
        if not 1 <= digest_size <= cls.MAX_DIGEST_SIZE:
            raise ValueError("digest_size must be between 1 and %d bytes" % cls.MAX_DIGEST_SIZE)
        key, salt, person = _bytes_like(key), _bytes_like(salt), _bytes_like(person)
        if len(key) > cls.MAX_KEY_SIZE:
            raise ValueError("maximum key length is %d bytes" % cls.MAX_KEY_SIZE)
        if len(salt) > cls.SALT_SIZE:
            raise ValueError("maximum salt length is %d bytes" % cls.SALT_SIZE)
        if len(person) > cls.PERSON_SIZE:
            raise ValueError("maximum person length is %d bytes" % cls.PERSON_SIZE)
        self.name = cls._NAME
        self._size = digest_size
        self._params = (bytes(key), bytes(salt), bytes(person))
        self._data = bytearray()
        self.update(data)

    def copy(self):
        other = type(self)(digest_size=self._size)
        other._params = self._params
        return self._copy_into(other)

    def digest(self):
        key, salt, person = self._params
        return _host.blake2(self.name, bytes(self._data), self._size, key, salt, person)

    @property
    def digest_size(self):
        return self._size

    def __repr__(self):
        return "<_blake2.%s object at %#x>" % (self.name, id(self))


class blake2b(_Blake2):
    _NAME = "blake2b"
    SALT_SIZE = 16
    PERSON_SIZE = 16
    MAX_KEY_SIZE = 64
    MAX_DIGEST_SIZE = 64


class blake2s(_Blake2):
    _NAME = "blake2s"
    SALT_SIZE = 8
    PERSON_SIZE = 8
    MAX_KEY_SIZE = 32
    MAX_DIGEST_SIZE = 32


class _Shake(_Hash):
    """SHAKE128/SHAKE256: ``digest(length)`` gives any number of bytes."""

    def __init__(self, name, data=b""):
        self.name = name
        self._data = bytearray()
        self.update(data)

    def copy(self):
        return self._copy_into(_Shake(self.name))

    def digest(self, length):
        if length < 0:
            raise ValueError("length must be non-negative")
        return _host.shake(self.name, bytes(self._data), length)

    def hexdigest(self, length):
        return self.digest(length).hex()

    @property
    def digest_size(self):
        return 0

    def __repr__(self):
        return "<%s _hashlib.HASHXOF object @ %#x>" % (self.name, id(self))


def shake_128(data=b"", *, usedforsecurity=True):
    return _Shake("shake_128", data)


def shake_256(data=b"", *, usedforsecurity=True):
    return _Shake("shake_256", data)


def new(name, data=b"", **kwargs):
    name = name.lower().replace("-", "_")
    if name == "blake2b":
        return blake2b(data, **kwargs)
    if name == "blake2s":
        return blake2s(data, **kwargs)
    kwargs.pop("usedforsecurity", None)
    if kwargs:
        raise TypeError("new() got an unexpected keyword argument %r" % next(iter(kwargs)))
    if name in ("shake_128", "shake_256"):
        return _Shake(name, data)
    return _Hash(name, data)


def pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):
    """PBKDF2 with HMAC over ``hash_name`` (RFC 8018), as CPython's."""
    name = hash_name.lower().replace("-", "_")
    if name not in _DIGEST_SIZES and name not in ("blake2b", "blake2s"):
        raise ValueError("unsupported hash type " + hash_name)
    for value in (password, salt):
        if not isinstance(value, (bytes, bytearray)):
            raise TypeError("a bytes-like object is required, not '%s'" % type(value).__name__)
    if iterations < 1:
        raise ValueError("iteration value must be greater than 0.")
    if iterations > 0xFFFFFFFF:
        raise OverflowError("iteration value is too great.")
    if dklen is None:
        dklen = _DIGEST_SIZES.get(name) or (64 if name == "blake2b" else 32)
    if dklen < 1:
        raise ValueError("key length must be greater than 0.")
    if dklen > 0xFFFFFFFF:
        raise OverflowError("key length is too great.")
    return _host.pbkdf2_hmac(name, bytes(password), bytes(salt), iterations, dklen)


def md5(data=b"", *, usedforsecurity=True):
    return _Hash("md5", data)


def sha1(data=b"", *, usedforsecurity=True):
    return _Hash("sha1", data)


def sha224(data=b"", *, usedforsecurity=True):
    return _Hash("sha224", data)


def sha256(data=b"", *, usedforsecurity=True):
    return _Hash("sha256", data)


def sha384(data=b"", *, usedforsecurity=True):
    return _Hash("sha384", data)


def sha512(data=b"", *, usedforsecurity=True):
    return _Hash("sha512", data)


def sha3_224(data=b"", *, usedforsecurity=True):
    return _Hash("sha3_224", data)


def sha3_256(data=b"", *, usedforsecurity=True):
    return _Hash("sha3_256", data)


def sha3_384(data=b"", *, usedforsecurity=True):
    return _Hash("sha3_384", data)


def sha3_512(data=b"", *, usedforsecurity=True):
    return _Hash("sha3_512", data)
