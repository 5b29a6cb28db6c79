# refused: forbidden-builtin
import struct


def run():
    return list(struct.unpack_from("<B", memoryview(b"\x05\x06"), 1))
