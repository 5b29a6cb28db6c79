import base64


def attempt(fn):
    try:
        return fn()
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        base64.b16encode(b"\x00\x01\xab\xff"),
        base64.b16decode(b"0001ABFF"),
        attempt(lambda: base64.b16decode(b"0001abff")),
        base64.b16decode(b"0001abff", casefold=True),
        attempt(lambda: base64.b16decode(b"ABC")),
        attempt(lambda: base64.b16decode("zz")),
        base64.b16decode("CAFE"),
    ]
