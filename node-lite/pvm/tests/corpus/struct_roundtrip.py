import struct

def run():
    fmt = "<3sHd"
    b = struct.pack(fmt, b"abc", 65535, 0.5)
    return [len(b), list(struct.unpack(fmt, b))[:2], struct.unpack(fmt, b)[2] == 0.5]
