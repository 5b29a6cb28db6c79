import hashlib
import hmac


def sign(secret, payload):
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()


def verify(secret, payload, signature):
    return hmac.compare_digest(sign(secret, payload), signature)


def run():
    secret = b"webhook-secret"
    body = b'{"event":"paid","amount":100}'
    good = sign(secret, body)
    out = [
        verify(secret, body, good),
        verify(secret, body, good.upper()),
        verify(secret, body + b" ", good),
        verify(b"other", body, good),
        hmac.compare_digest(b"abc", b"abc"),
        hmac.compare_digest(b"abc", b"abd"),
        hmac.compare_digest(b"abc", b"ab"),
        hmac.compare_digest("", ""),
    ]
    for a, b in [("abc", b"abc"), ("é", "é")]:
        try:
            out.append(hmac.compare_digest(a, b))
        except TypeError as e:
            out.append([type(e).__name__, str(e)])
    return out
