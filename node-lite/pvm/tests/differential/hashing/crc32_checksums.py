# refused: import-not-allowed
import zlib
import binascii


def run():
    data = b"The quick brown fox jumps over the lazy dog"
    running = 0
    for i in range(0, len(data), 10):
        running = zlib.crc32(data[i:i + 10], running)
    return [
        zlib.crc32(b""),
        zlib.crc32(b"123456789"),
        zlib.crc32(data),
        running == zlib.crc32(data),
        binascii.crc32(data) == zlib.crc32(data),
        format(zlib.crc32(b"hello"), "08x"),
        zlib.crc32(b"hello", 0xFFFFFFFF),
        zlib.crc32(b"abc").to_bytes(4, "big").hex(),
    ]
