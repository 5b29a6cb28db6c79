import hashlib


def run():
    out = []
    for name in ["sha256", "md5", "sha1", "sha512", "blake2s", "sha3_512"]:
        h = hashlib.new(name)
        h.update(b"data")
        out.append([h.name, h.hexdigest() == getattr(hashlib, name)(b"data").hexdigest()])
    out.append(hashlib.new("sha256", b"data").hexdigest()[:12])
    out.append(hashlib.new("sha256", data=b"data").hexdigest()[:12])
    try:
        hashlib.new("sha257")
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    out.append(sorted(n for n in hashlib.algorithms_guaranteed))
    return out
