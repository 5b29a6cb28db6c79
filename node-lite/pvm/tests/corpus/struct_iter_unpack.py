import struct

def run():
    data = struct.pack(">4H", 1, 2, 3, 4)
    return [list(struct.iter_unpack(">H", data)), struct.unpack_from(">H", data, 4)]
