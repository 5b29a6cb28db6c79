def run():
    b = bytes(range(0xf0, 0xf8))
    return [
        b.hex(),
        b.hex(":"),
        b.hex(" ", 2),
        b.hex("-", -3),
        b.hex("_", 3),
        b.hex(b"|"),
        b"".hex(":"),
        bytearray(b"\x00\x0a").hex("."),
        b"\xde\xad\xbe\xef"[1:3].hex("-"),
        b"\x01".hex(":", 4),
    ]
