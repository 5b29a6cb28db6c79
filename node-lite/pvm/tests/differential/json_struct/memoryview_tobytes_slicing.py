# refused: forbidden-builtin
def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    ba = bytearray(b"abcdefgh")
    mv = memoryview(ba)
    part = mv[2:5]
    part[0] = ord("Z")
    ro = memoryview(b"xyz")
    res = [bytes(ba), part.tobytes(), mv[::2].tobytes(), mv[-1], len(part), mv.nbytes,
           mv.readonly, ro.readonly, part.tolist(), mv[1:3] == b"bc", ro.tobytes() == b"xyz"]
    res.append(attempt(lambda: ro.__setitem__(0, 65)))
    mv[0:2] = b"AB"
    res.append(bytes(ba))
    res.append(attempt(lambda: mv.__setitem__(slice(0, 2), b"ABC")))
    res.append(bytes(memoryview(b"\x01\x02\x03\x04").cast("H").tobytes()))
    res.append(memoryview(b"\x01\x00\x02\x00").cast("H").tolist())
    with memoryview(b"ctx") as m:
        res.append(m.tobytes())
    res.append(attempt(lambda: m.tobytes()))
    return res
