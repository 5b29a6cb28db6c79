import struct


def run():
    vals = [1.0, -2.5, 0.1, 65504.0, 1e-8]
    out = []
    for v in vals:
        e = struct.pack("<e", v)
        f = struct.pack("<f", v)
        d = struct.pack(">d", v)
        out.append([e.hex(), f.hex(), d.hex(), repr(struct.unpack("<e", e)[0]),
                    repr(struct.unpack("<f", f)[0]), repr(struct.unpack(">d", d)[0])])
    out.append(struct.pack("<d", float("inf")).hex())
    out.append(struct.pack("<f", float("-inf")).hex())
    out.append(repr(struct.unpack("<d", struct.pack("<d", -0.0))[0]))
    try:
        struct.pack("<e", 70000.0)
        out.append(None)
    except OverflowError as e:
        out.append([type(e).__name__, str(e)])
    try:
        struct.pack("<f", 1e40)
        out.append(None)
    except OverflowError as e:
        out.append([type(e).__name__, str(e)])
    out.append(struct.pack("<f", 3).hex())
    return out
