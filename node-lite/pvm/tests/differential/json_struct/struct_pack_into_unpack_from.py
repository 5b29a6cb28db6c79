import struct


def run():
    buf = bytearray(12)
    struct.pack_into("<HI", buf, 0, 0xBEEF, 7)
    struct.pack_into(">H", buf, 8, 0x1234)
    struct.pack_into("<b", buf, -1, -1)
    first = list(struct.unpack_from("<HI", buf))
    at8 = list(struct.unpack_from(">H", buf, 8))
    at8b = list(struct.unpack_from(">H", buf, offset=8))
    res = [bytes(buf), first, at8, at8b]
    try:
        struct.pack_into("<I", buf, 10, 1)
    except struct.error as e:
        res.append([type(e).__name__, str(e)])
    try:
        struct.unpack_from("<I", b"\x00\x01", 0)
    except struct.error as e:
        res.append([type(e).__name__, str(e)])
    try:
        struct.pack_into("<I", b"immutable", 0, 1)
    except TypeError as e:
        res.append(type(e).__name__)
    res.append(list(struct.unpack_from("<B", b"\x05\x06", 1)))
    res.append(list(struct.unpack_from("<H", bytearray(b"\x00\x01\x02"), offset=1)))
    return res
