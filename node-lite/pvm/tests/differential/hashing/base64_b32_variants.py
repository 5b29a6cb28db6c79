import base64


def attempt(fn):
    try:
        return fn()
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        [base64.b32encode(s) for s in [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar"]],
        base64.b32decode(b"MZXW6YTBOI======"),
        attempt(lambda: base64.b32decode(b"mzxw6ytboi======")),
        base64.b32decode(b"mzxw6ytboi======", casefold=True),
        base64.b32decode(b"MZXW6YTB0I======", map01=b"O"),
        base64.b32hexencode(b"foobar"),
        base64.b32hexdecode(b"CPNMUOJ1E8======"),
        attempt(lambda: base64.b32decode(b"MZXW6YT")),
    ]
