import base64


def attempt(fn):
    try:
        return fn()
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    data = b"Hello, World!"
    return [
        base64.b85encode(data),
        base64.b85decode(base64.b85encode(data)) == data,
        base64.b85encode(b"\x00" * 4),
        base64.b85encode(b"abc", pad=True),
        base64.a85encode(data),
        base64.a85encode(b"\x00" * 8),
        base64.a85encode(b"    ", foldspaces=True),
        base64.a85encode(data, adobe=True),
        base64.a85decode(b"<~87cURD]i,\"Ebo80~>", adobe=True),
        base64.a85decode(base64.a85encode(data)) == data,
        attempt(lambda: base64.b85decode(b"~~~~~")),
    ]
