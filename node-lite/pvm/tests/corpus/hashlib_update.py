import hashlib

def run():
    h = hashlib.sha256()
    h.update(b"hello ")
    h.update(b"world")
    c = h.copy()
    c.update(b"!")
    return [h.hexdigest(), c.hexdigest(), hashlib.sha256(b"hello world").hexdigest() == h.hexdigest(), h.digest_size]
