# Argument errors CPython 3.11 words its own way: fromhex of non-str, encode/decode with a
# non-str encoding, bytearray.pop out of range, compare_digest of non-bytes-like.
import hmac


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        attempt(lambda: bytes.fromhex(b"ab")),
        attempt(lambda: bytearray.fromhex(bytearray(b"ab"))),
        attempt(lambda: bytes.fromhex("ab é")),
        attempt(lambda: bytes.fromhex(" ab  cd ")),
        attempt(lambda: "x".encode(5)),
        attempt(lambda: b"x".decode(encoding=None)),
        attempt(lambda: b"x".decode("No Such Codec")),
        attempt(lambda: bytearray(b"x").pop(5)),
        attempt(lambda: bytearray(b"x").pop(-2)),
        attempt(lambda: hmac.compare_digest(1, 2)),
        attempt(lambda: hmac.compare_digest(b"a", "a")),
        attempt(lambda: hmac.compare_digest("a", 1)),
        attempt(lambda: hmac.compare_digest(bytearray(b"a"), b"a")),
    ]
