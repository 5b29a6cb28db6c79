# refused: import-not-allowed
import binascii


def attempt(fn):
    try:
        return fn()
    except (binascii.Error, ValueError, TypeError) as e:
        return [type(e).__name__, str(e)]


def run():
    data = b"\x01\x23\x45\x67\x89\xab\xcd\xef"
    return [
        binascii.hexlify(data),
        binascii.b2a_hex(data),
        binascii.hexlify(data, "-"),
        binascii.hexlify(data, b":", 2),
        binascii.hexlify(data, " ", -3),
        binascii.unhexlify(b"0123456789abcdef"),
        binascii.unhexlify("DEADBEEF"),
        binascii.a2b_hex(b"00ff"),
        attempt(lambda: binascii.unhexlify(b"abc")),
        attempt(lambda: binascii.unhexlify(b"zz")),
        attempt(lambda: binascii.unhexlify(b"de ad")),
    ]
