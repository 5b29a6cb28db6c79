def run():
    return [
        int.from_bytes(b"\x00\x10", "big"),
        int.from_bytes(b"\x00\x10", "little"),
        int.from_bytes(b"\xff\xff", "big", signed=True),
        int.from_bytes(b"\xff\xff", "big"),
        int.from_bytes(b"\x80", "big", signed=True),
        int.from_bytes(b"", "big"),
        int.from_bytes([1, 2, 3], "big"),
        int.from_bytes(b"\x01\x00"),
        int.from_bytes(bytearray(b"\xfe\xff"), "little", signed=True),
    ]
