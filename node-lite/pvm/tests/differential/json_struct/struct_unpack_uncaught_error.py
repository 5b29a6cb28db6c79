import struct


def run():
    return struct.unpack(">IH", b"\x00\x00\x00\x01\x02")
