import hashlib
import hmac


def run():
    key = b"key"
    msg = b"The quick brown fox jumps over the lazy dog"
    h = hmac.new(key, msg, hashlib.sha256)
    return [
        h.hexdigest(),
        hmac.new(key, msg, "md5").hexdigest(),
        hmac.new(key, msg, digestmod="sha1").hexdigest(),
        hmac.new(b"", b"", hashlib.sha256).hexdigest(),
        h.name, h.digest_size, h.block_size,
        len(h.digest()),
        h.digest().hex() == h.hexdigest(),
    ]
