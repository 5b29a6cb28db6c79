import hashlib
import hmac


def commit(value, nonce):
    return hashlib.sha256(nonce + b"|" + value).hexdigest()


def run():
    chain = [hashlib.sha256(b"genesis").hexdigest()]
    for i in range(5):
        chain.append(hashlib.sha256((chain[-1] + str(i)).encode()).hexdigest())
    c = commit(b"vote:yes", b"n0nce")
    return [
        [x[:12] for x in chain],
        c,
        hmac.compare_digest(c, commit(b"vote:yes", b"n0nce")),
        hmac.compare_digest(c, commit(b"vote:no", b"n0nce")),
        hashlib.sha256(b"a" + b"bc").hexdigest() == hashlib.sha256(b"ab" + b"c").hexdigest(),
    ]
