import hashlib

def run():
    return [hashlib.sha256(b"abc").hexdigest(), hashlib.md5(b"").hexdigest(), hashlib.sha3_256(b"cowboy").hexdigest(), hashlib.sha1(b"x").hexdigest()]
