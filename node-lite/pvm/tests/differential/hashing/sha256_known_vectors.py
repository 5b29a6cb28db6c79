import hashlib


def run():
    return [
        hashlib.sha256(b"").hexdigest(),
        hashlib.sha256(b"abc").hexdigest(),
        hashlib.sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hexdigest(),
        hashlib.sha256(b"a" * 1000).hexdigest(),
        hashlib.sha256("héllo wörld".encode("utf-8")).hexdigest(),
        hashlib.sha256(bytearray(b"abc")).hexdigest(),
        hashlib.sha256(b"xabcx"[1:4]).hexdigest(),
        hashlib.sha256(b"ab" + b"c").digest().hex() == hashlib.sha256(b"abc").hexdigest(),
    ]
