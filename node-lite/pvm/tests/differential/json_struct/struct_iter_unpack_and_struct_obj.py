import struct


def run():
    data = struct.pack("<3H", 1, 2, 3) + struct.pack("<3H", 40, 50, 60)
    rows = [list(t) for t in struct.iter_unpack("<3H", data)]
    pairs = [list(t) for t in struct.iter_unpack(">bB", b"\xff\x01\x02\x80")]
    s = struct.Struct("<IH")
    packed = s.pack(1000, 7)
    res = [rows, pairs, packed, list(s.unpack(packed)), s.size,
           [list(t) for t in s.iter_unpack(packed * 2)]]
    try:
        list(struct.iter_unpack("<I", b"\x00" * 6))
    except struct.error as e:
        res.append([type(e).__name__, str(e)])
    try:
        struct.iter_unpack("<0s", b"")
    except struct.error as e:
        res.append([type(e).__name__, str(e)])
    return res
