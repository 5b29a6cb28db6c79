import base64


def run():
    raw = bytes([0xfb, 0xef, 0xff, 0x3e, 0x3f, 0x00])
    token = base64.urlsafe_b64encode(raw)
    unpadded = token.rstrip(b"=")
    short = base64.urlsafe_b64encode(b"\xff\xfe")
    return [
        base64.b64encode(raw),
        token,
        base64.urlsafe_b64decode(token) == raw,
        short,
        short.rstrip(b"="),
        base64.urlsafe_b64decode(short.rstrip(b"=") + b"=" * (-len(short.rstrip(b"=")) % 4)),
        base64.urlsafe_b64decode("__8="),
        base64.urlsafe_b64decode(b"++8="),
        unpadded,
    ]
