# refused: import-not-allowed
import zlib


def run():
    data = b"Wikipedia"
    running = 1
    for chunk in [b"Wiki", b"ped", b"ia"]:
        running = zlib.adler32(chunk, running)
    return [
        zlib.adler32(b""),
        zlib.adler32(data),
        hex(zlib.adler32(data)),
        running == zlib.adler32(data),
        zlib.adler32(b"a" * 4000),
        zlib.adler32(b"abc", 0),
    ]
