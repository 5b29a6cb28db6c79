import base64


def decode(data, validate=False):
    try:
        return base64.b64decode(data, validate=validate)
    except ValueError as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        decode(b"Zm9v"),
        decode(b"Zm9"),
        decode(b"Zm9vY"),
        decode(b"Zm 9v"),
        decode(b"Zm 9v", validate=True),
        decode(b"Zm9v!!"),
        decode(b"Zm9v!!", validate=True),
        decode(b"Zg=="),
        decode(b"Zg="),
        decode(b"Zg", validate=True),
        decode("Zm9v\u00e9"),
        decode("Zm9v", validate=True),
    ]
