import base64


def run():
    samples = [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar", bytes(range(250, 256))]
    encoded = [base64.b64encode(s) for s in samples]
    return [
        encoded,
        [base64.b64decode(e) == s for e, s in zip(encoded, samples)],
        base64.b64decode("Zm9vYmFy"),
        base64.b64decode(b"Zm9v\nYmFy"),
        base64.b64encode("héllo".encode()).decode("ascii"),
        base64.standard_b64encode(b"\xfb\xff"),
        base64.standard_b64decode(b"+/8="),
        base64.b64encode(b"\xfb\xff", altchars=b"-_"),
        base64.b64decode(b"-_8=", altchars=b"-_"),
    ]
