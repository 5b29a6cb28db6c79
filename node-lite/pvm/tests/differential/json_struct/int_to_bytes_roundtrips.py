def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    vals = [0, 1, 255, 256, 65535, 2 ** 64 - 1, 2 ** 100 + 3]
    rt = []
    for v in vals:
        n = max(1, (v.bit_length() + 7) // 8)
        be = v.to_bytes(n, "big")
        le = v.to_bytes(n, "little")
        rt.append([be, le, int.from_bytes(be, "big") == v, int.from_bytes(le, "little") == v])
    return [
        rt,
        (-1).to_bytes(2, "big", signed=True), (-129).to_bytes(2, "little", signed=True),
        int.from_bytes(b"\xff\xfe", "big", signed=True), int.from_bytes(b"\xff\xfe", "big"),
        int.from_bytes(b"", "big"), int.from_bytes([1, 2], "little"),
        (5).to_bytes(), (1024).to_bytes(4), int.from_bytes(b"\x01\x00"),
        attempt(lambda: (256).to_bytes(1, "big")),
        attempt(lambda: (-1).to_bytes(1, "big")),
        attempt(lambda: (128).to_bytes(1, "big", signed=True)),
        attempt(lambda: (1).to_bytes(1, "middle")),
        (0).to_bytes(0, "big"),
    ]
