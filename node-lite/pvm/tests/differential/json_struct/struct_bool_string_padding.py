import struct


def run():
    return [
        struct.pack("<?", True), struct.pack("<?", 5), struct.pack("<?", ""),
        list(struct.unpack("<???", b"\x00\x01\x07")),
        struct.pack("5s", b"abc"), struct.pack("2s", b"abcdef"), struct.pack("s", b"xyz"),
        list(struct.unpack("3s2x1s", b"abc\x00\x00z")),
        struct.pack("5p", b"abc"), struct.pack("3p", b"abcdef"),
        list(struct.unpack("5p", b"\x03abcX")),
        struct.pack("<BxxH", 1, 2), struct.pack("<3x"),
        struct.pack("<0s", b"zz"), list(struct.unpack("<4sI", b"HEAD\x10\x00\x00\x00")),
    ]
