import hashlib


def run():
    return [
        hashlib.sha256(b"").hexdigest(),
        hashlib.sha256(b"abc").hexdigest(),
        hashlib.sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hexdigest(),
        hashlib.sha256(b"a" * 1000).hexdigest(),
        hashlib.sha256("héllo wörld".encode("utf-8")).hexdigest(),
        hashlib.sha256(bytearray(b"abc")).hexdigest(),
        hashlib.sha256(memoryview(b"xabcx")[1:4]).hexdigest(),
    ]
