import base64
import binascii


def run():
    data = bytes(range(64)) * 2
    enc = base64.encodebytes(data)
    lines = enc.split(b"\n")
    return [
        len(lines), [len(x) for x in lines],
        base64.decodebytes(enc) == data,
        base64.encodebytes(b""),
        base64.encodebytes(b"abc"),
        binascii.b2a_base64(b"abc"),
        binascii.b2a_base64(b"abc", newline=False),
        binascii.a2b_base64(b"YWJj\n"),
        binascii.a2b_base64("YW Jj"),
    ]
