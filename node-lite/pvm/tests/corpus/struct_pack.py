import struct

def run():
    b = struct.pack(">IhB", 1, -2, 255)
    return [b.hex(), struct.unpack(">IhB", b), struct.calcsize(">IhB"), struct.pack("<q", -1).hex()]
