import hashlib
import hmac


def run():
    cases = [
        (b"\x0b" * 20, b"Hi There"),
        (b"Jefe", b"what do ya want for nothing?"),
        (b"\xaa" * 20, b"\xdd" * 50),
        (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First"),
    ]
    out = []
    for key, data in cases:
        out.append([
            hmac.new(key, data, hashlib.sha256).hexdigest(),
            hmac.new(key, data, hashlib.sha512).hexdigest()[:32],
        ])
    return out
