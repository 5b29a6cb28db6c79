import hashlib


def run():
    key = b"secret-key"
    base = hashlib.blake2b(b"message", key=key, digest_size=32).hexdigest()
    salted = hashlib.blake2b(b"message", key=key, salt=b"saltsalt", digest_size=32).hexdigest()
    personal = hashlib.blake2b(b"message", person=b"MyApp v1", digest_size=32).hexdigest()
    both = hashlib.blake2b(b"message", salt=b"s" * 16, person=b"p" * 16).hexdigest()
    out = [base, salted, personal, both, base != salted]
    for kwargs in [{"key": b"k" * 65}, {"salt": b"s" * 17}, {"person": b"p" * 17}]:
        try:
            hashlib.blake2b(b"m", **kwargs)
            out.append("ok")
        except ValueError as e:
            out.append([type(e).__name__, str(e)])
    return out
