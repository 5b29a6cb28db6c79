import struct


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        attempt(lambda: struct.pack("<HH", 1)),
        attempt(lambda: struct.pack("<H", 1, 2)),
        attempt(lambda: struct.unpack("<H", b"\x00")),
        attempt(lambda: struct.unpack("<H", b"\x00\x00\x00")),
        attempt(lambda: struct.pack("<y", 1)),
        attempt(lambda: struct.calcsize("<Z")),
        attempt(lambda: struct.pack("<s", "str")),
        attempt(lambda: struct.pack("<B", None)),
        issubclass(struct.error, Exception),
        struct.error.__name__,
    ]
