import struct


def run():
    return [
        struct.pack("<I", 0x01020304), struct.pack(">I", 0x01020304),
        struct.pack("!I", 0x01020304), struct.pack("=I", 0x01020304) == struct.pack("<I", 0x01020304),
        struct.pack("<h", -2), struct.pack(">h", -2),
        struct.pack("<q", -1), struct.pack(">Q", 2 ** 64 - 1),
        list(struct.unpack("<HH", b"\x01\x00\x00\x01")),
        list(struct.unpack(">HH", b"\x01\x00\x00\x01")),
        list(struct.unpack("!i", b"\xff\xff\xff\xfe")),
        struct.pack("<bB", -128, 255), list(struct.unpack("<bB", b"\x80\xff")),
    ]
