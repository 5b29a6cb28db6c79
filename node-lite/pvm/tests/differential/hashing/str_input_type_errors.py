import hashlib


def attempt(fn):
    try:
        return fn()
    except TypeError as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        attempt(lambda: hashlib.sha256("text").hexdigest()),
        attempt(lambda: hashlib.sha256().update("text")),
        attempt(lambda: hashlib.md5(123).hexdigest()),
        attempt(lambda: hashlib.sha256(None).hexdigest()),
        attempt(lambda: hashlib.sha256("text".encode()).hexdigest()[:10]),
    ]
