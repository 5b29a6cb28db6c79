import base64


def run():
    data = bytes(range(64)) * 2
    enc = base64.encodebytes(data)
    lines = enc.split(b"\n")
    return [
        len(lines), [len(x) for x in lines],
        base64.decodebytes(enc) == data,
        base64.encodebytes(b""),
        base64.encodebytes(b"abc"),
        base64.encodebytes(bytes(57)).count(b"\n"),
        base64.encodebytes(bytes(58)).count(b"\n"),
        base64.b64encode(b"abc") + b"\n" == base64.encodebytes(b"abc"),
        base64.decodebytes(b"YWJj\n"),
        base64.decodebytes(b"YW\nJj"),
        base64.b64decode(b"YW Jj"),
    ]
