import hashlib
import hmac


def run():
    key = b"k3y"
    one = hmac.digest(key, b"hello world", "sha256")
    h = hmac.new(key, digestmod=hashlib.sha256)
    h.update(b"hello ")
    c = h.copy()
    h.update(b"world")
    c.update(b"there")
    out = [
        one == h.digest(),
        one.hex()[:16],
        c.hexdigest() == hmac.new(key, b"hello there", "sha256").hexdigest(),
        hmac.digest(key, b"x", hashlib.sha1).hex(),
        hmac.new(bytearray(key), b"x", "sha1").hexdigest(),
    ]
    try:
        hmac.new(key, b"msg")
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        hmac.new("strkey", b"msg", "sha256")
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
